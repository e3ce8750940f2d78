import { describe, expect, it } from 'vitest';
import {
  afterRender,
  confirmsKept,
  mayRevalidate,
  newerState,
  type RecordedRequest,
  type RevalidationState,
  sameAnswers,
} from './revalidation.ts';

const request = (url: string, digest: string, kind = 'fetch'): RecordedRequest => ({
  method: 'GET',
  url,
  headers: {},
  kind,
  digest,
});

const rendered = (requests: RecordedRequest[], areasDigest: string) => ({
  v: 1 as const,
  settings: 's',
  requests,
  result: { finalUrl: 'https://shop.example/', status: 200, areas: [], areasDigest },
  renderedAt: 1_000,
});

const policy = { renderEvery: 10, maxAgeMs: 60_000 };

describe('revalidation state', () => {
  it('matches answers by path, not by a cache-busting query', () => {
    expect(
      sameAnswers([request('https://a.example/d?_=1', 'x')], [request('https://a.example/d?_=2', 'x')]),
    ).toBe(true);
    expect(sameAnswers([request('https://a.example/d', 'x')], [request('https://a.example/d', 'y')])).toBe(
      false,
    );
    expect(sameAnswers([request('https://a.example/d', 'x')], [request('https://a.example/e', 'x')])).toBe(
      false,
    );
  });

  it('marks a page whose areas changed while its answers did not as volatile, for good', () => {
    const first: RevalidationState = {
      ...afterRender(undefined, rendered([request('https://a.example/d', 'x')], 'A')),
      verified: true,
    };
    const second = afterRender(first, rendered([request('https://a.example/d', 'x')], 'B'));
    expect(second.volatile).toBe(true);
    const third = afterRender(second, rendered([request('https://a.example/d', 'y')], 'C'));
    expect(third.volatile).toBe(true);
    expect(mayRevalidate(third, 's', 1_001, policy, 0.5)).toBe(false);
  });

  it('keeps a page verified while its code stays, and asks again when a script changed', () => {
    const doc = request('https://a.example/', 'doc', 'document');
    const first: RevalidationState = {
      ...afterRender(undefined, rendered([doc, request('https://a.example/d', 'x')], 'A')),
      verified: true,
    };
    const dataChanged = afterRender(first, rendered([doc, request('https://a.example/d', 'y')], 'B'));
    expect(dataChanged).toMatchObject({ verified: true, volatile: false });
    const scriptChanged = afterRender(
      first,
      rendered([request('https://a.example/', 'doc2', 'document'), request('https://a.example/d', 'x')], 'B'),
    );
    expect(scriptChanged).toMatchObject({ verified: false, volatile: false });
  });

  it('takes the shortcut only for verified state of the same settings, within the count and the time limit', () => {
    const state: RevalidationState = { ...afterRender(undefined, rendered([], 'A')), verified: true };
    expect(mayRevalidate(state, 's', 1_001, policy, 0.5)).toBe(true);
    expect(mayRevalidate(state, 'other settings', 1_001, policy, 0.5)).toBe(false);
    expect(mayRevalidate({ ...state, verified: false }, 's', 1_001, policy, 0.5)).toBe(false);
    expect(mayRevalidate({ ...state, unfit: 'the page streams' }, 's', 1_001, policy, 0.5)).toBe(false);
    // One draw in ten renders.
    expect(mayRevalidate(state, 's', 1_001, policy, 0.09)).toBe(false);
    expect(mayRevalidate(state, 's', 1_001, policy, 0.1)).toBe(true);
    // Forced renders off: even the lowest draw takes the shortcut.
    expect(mayRevalidate(state, 's', 1_001, { ...policy, renderEvery: 0 }, 0)).toBe(true);
    expect(mayRevalidate(state, 's', 61_000, policy, 0.5)).toBe(false);
    // A clock that went back is not trusted either.
    expect(mayRevalidate(state, 's', 999, policy, 0.5)).toBe(false);
  });

  it('leaves the kept state as it is after a render that only confirmed it, until half the time limit has passed', () => {
    const doc = request('https://a.example/', 'doc', 'document');
    const kept: RevalidationState = { ...afterRender(undefined, rendered([doc], 'A')), verified: true };
    const renderedAt = (at: number, requests = [doc], digest = 'A') => ({
      ...afterRender(kept, rendered(requests, digest)),
      renderedAt: at,
    });
    expect(confirmsKept(kept, renderedAt(1_000 + 29_999), policy)).toBe(true);
    // Half the limit gone: the render's time is kept, so the limit counts from it.
    expect(confirmsKept(kept, renderedAt(1_000 + 30_000), policy)).toBe(false);
    expect(confirmsKept(kept, renderedAt(999), policy)).toBe(false);
    // Anything new read or answered is kept.
    expect(confirmsKept(kept, renderedAt(2_000, [doc], 'B'), policy)).toBe(false);
    expect(
      confirmsKept(kept, renderedAt(2_000, [request('https://a.example/', 'doc2', 'document')]), policy),
    ).toBe(false);
    expect(confirmsKept(kept, { ...renderedAt(2_000), volatile: true }, policy)).toBe(false);
    expect(confirmsKept(kept, { ...renderedAt(2_000), settings: 'other' }, policy)).toBe(false);
    expect(confirmsKept(undefined, renderedAt(2_000), policy)).toBe(false);
  });

  it('takes the state of the later render, whether the check carried it or the crawler remembers it', () => {
    const older: RevalidationState = { ...afterRender(undefined, rendered([], 'A')), renderedAt: 1_000 };
    const newer: RevalidationState = { ...afterRender(undefined, rendered([], 'B')), renderedAt: 2_000 };
    expect(newerState(older, newer)).toBe(newer);
    expect(newerState(newer, older)).toBe(newer);
    expect(newerState(undefined, older)).toBe(older);
    expect(newerState(older, undefined)).toBe(older);
    expect(newerState(undefined, undefined)).toBeUndefined();
    // The same render either way: the carried one, as the scheduler keeps it.
    expect(newerState(older, { ...older })).toBe(older);
  });
});
