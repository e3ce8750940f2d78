import type { ChatPlatformSettings } from '@mimamori/chat';
import type { FastifyInstance } from 'fastify';

/**
 * Loopback stand-ins for the chat platforms: each answers the product as the platform's API
 * would, with the platform's documented limits and dead-connection answers, keeps what it
 * received, and shows it on a page under `/dev/<platform>` where a person plays the other side
 * (approves an OAuth consent, befriends the official account, presses Start, blocks the bot).
 * The single-process product serves them to loopback peers only; tests start them on their own.
 */

/** One thing a stand-in received: a message, with its pictures. */
export interface StandInRecord {
  id: number;
  at: string;
  /** Which chat it went to (channel id, room id, chat id, user id, the Workflows URL's id). */
  chat: string;
  /** The platform's request as received (JSON, or the form's fields). */
  body: unknown;
  files: ReadonlyArray<{ filename: string; contentType: string; data: Buffer }>;
}

/**
 * Where the stand-ins keep what they received, so a restart of the single-process product loses
 * nothing (docs/channels.md#trying-it-locally); tests use the in-memory one.
 */
export interface StandInStore {
  add(platform: string, record: Omit<StandInRecord, 'id'>): Promise<StandInRecord>;
  /** Newest first. */
  list(platform: string): Promise<StandInRecord[]>;
  /** Small per-platform state (linked chats, blocked users, issued OAuth codes) that must survive a restart too. */
  readState<T>(platform: string, fallback: T): Promise<T>;
  writeState<T>(platform: string, state: T): Promise<void>;
}

export interface StandInOptions {
  store: StandInStore;
  /** The product's own address, for the inbound callbacks a stand-in sends (LINE, Telegram). */
  productUrl: () => string;
  /** The product's settings for the platform, so the stand-in signs and checks as the platform would. */
  settings: ChatPlatformSettings;
  /** Injected clock for Retry-After and rate windows. */
  now?: () => number;
}

/** A platform's stand-in: registers its API routes and its page under `prefix` (`/dev/<platform>`). */
export type StandIn = (app: FastifyInstance, prefix: string, options: StandInOptions) => void;
