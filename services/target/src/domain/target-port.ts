import type { Quota } from '@mimamori/plans';
import type { TargetRecord } from './target-record.ts';

export type StateChange = 'registered' | 'updated' | 'paused' | 'resumed';

/**
 * One transaction on one user's sites, holding that user's lock so quota decisions see every
 * other change of the same user. Events written here commit with the change (outbox).
 */
export interface TargetUnit {
  /** The user's site of that version (any version when null), or null when there is none. */
  find(targetId: string, version: 1 | 2 | null): Promise<TargetRecord | null>;
  /** The user's sites that are monitoring (not paused), except one. */
  activeTargets(exceptId?: string): Promise<TargetRecord[]>;
  allTargets(): Promise<TargetRecord[]>;
  /** The next number in the user's list; numbers of deleted sites are not given again. */
  nextNo(): Promise<number>;
  insert(record: TargetRecord): Promise<void>;
  save(record: TargetRecord): Promise<void>;
  remove(record: TargetRecord): Promise<void>;
  publish(change: StateChange, record: TargetRecord): Promise<void>;
  publishDeleted(record: TargetRecord): Promise<void>;
  /** Reports what the user's monitoring sites now ask of the plan (targets.usage_changed). */
  publishUsage(demand: Quota): Promise<void>;
}

export interface TargetPort {
  /**
   * Runs `work` in one transaction under the user's lock. With a target id, first claims that
   * site for this action; while another action holds it the call is refused (busy) at once
   * instead of queueing behind it.
   */
  forUser<T>(userId: string, targetId: string | null, work: (unit: TargetUnit) => Promise<T>): Promise<T>;
  /** Read-only: the user's sites in list order. */
  list(userId: string): Promise<TargetRecord[]>;
  findOwn(userId: string, targetId: string): Promise<TargetRecord | null>;
  /** Clears the NEW flag of the user's site of that version; false when there is none. */
  markSeen(userId: string, targetId: string, version: 1 | 2): Promise<boolean>;
}
