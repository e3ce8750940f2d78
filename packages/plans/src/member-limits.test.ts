import { describe, expect, it } from 'vitest';
import { MEMBER_LIMITS, memberLimit, PLANS, type PlanId } from './plan-catalog.ts';

describe('members per plan (docs/product.md#workspaces)', () => {
  it('let every plan with sites share its workspace, more people on the bigger plans', () => {
    for (const id of Object.keys(PLANS).map(Number) as PlanId[]) {
      if (id >= 2) expect(MEMBER_LIMITS[id]).toBeGreaterThan(1);
    }
    expect([memberLimit(3), memberLimit(5), memberLimit(11)]).toEqual([3, 10, 25]);
  });

  it('leave only the owner without a plan or with an unknown one', () => {
    expect([memberLimit(0), memberLimit(1), memberLimit(42)]).toEqual([1, 1, 1]);
  });
});
