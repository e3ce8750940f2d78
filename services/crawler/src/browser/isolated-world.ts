import type { CDPSession, Page } from 'playwright-core';
import type { Locator } from '../domain/page-fetcher.ts';
import { FIND_ELEMENT } from './page-scripts.ts';

/**
 * A JavaScript world of our own inside a frame (CDP Page.createIsolatedWorld): it shares the
 * DOM with the page but not its globals, so page scripts cannot replace the functions we read
 * areas with (a patched querySelector, innerText or JSON would otherwise lie to us).
 */
export interface IsolatedWorld {
  /** Calls `functionSource` (a self-contained JS function expression) with `arg`; returns its JSON value. */
  evaluate<T>(functionSource: string, arg?: unknown): Promise<T>;
}

export class FrameNotFoundError extends Error {
  override readonly name = 'FrameNotFoundError';
  constructor(readonly frame: NonNullable<Locator['frame']>) {
    super(`iframe not found: ${frame.selector}`);
  }
}

const sessions = new WeakMap<Page, Promise<CDPSession>>();
const WORLD_NAME = 'mimamori-reader';

function cdpSession(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) {
    session = page.context().newCDPSession(page);
    sessions.set(page, session);
  }
  return session;
}

/** The isolated world of the top document, or of the iframe `frame` names (found from the top). */
export async function isolatedWorld(page: Page, frame?: Locator['frame']): Promise<IsolatedWorld> {
  const session = await cdpSession(page);
  const { frameTree } = (await session.send('Page.getFrameTree')) as { frameTree: { frame: { id: string } } };
  const topContext = await createWorld(session, frameTree.frame.id);
  if (!frame) return worldOf(session, topContext);

  const found = (await session.send('Runtime.evaluate', {
    expression: `(${FIND_ELEMENT})(${JSON.stringify(frame)})`,
    contextId: topContext,
    returnByValue: false,
  })) as { result: { objectId?: string; subtype?: string } };
  if (!found.result.objectId || found.result.subtype === 'null') throw new FrameNotFoundError(frame);
  const described = (await session.send('DOM.describeNode', { objectId: found.result.objectId })) as {
    node: { frameId?: string; contentDocument?: { frameId?: string } };
  };
  await session.send('Runtime.releaseObject', { objectId: found.result.objectId }).catch(() => undefined);
  const frameId = described.node.frameId ?? described.node.contentDocument?.frameId;
  if (!frameId) throw new FrameNotFoundError(frame);
  return worldOf(session, await createWorld(session, frameId));
}

async function createWorld(session: CDPSession, frameId: string): Promise<number> {
  const { executionContextId } = (await session.send('Page.createIsolatedWorld', {
    frameId,
    worldName: WORLD_NAME,
  })) as { executionContextId: number };
  return executionContextId;
}

function worldOf(session: CDPSession, contextId: number): IsolatedWorld {
  return {
    async evaluate<T>(functionSource: string, arg?: unknown): Promise<T> {
      const response = (await session.send('Runtime.evaluate', {
        expression: `(${functionSource})(${JSON.stringify(arg ?? null)})`,
        contextId,
        returnByValue: true,
        awaitPromise: true,
      })) as {
        result: { value?: unknown };
        exceptionDetails?: { text?: string; exception?: { description?: string } };
      };
      if (response.exceptionDetails) {
        const reason = response.exceptionDetails.exception?.description ?? response.exceptionDetails.text;
        throw new Error(`page script failed: ${reason}`);
      }
      return response.result.value as T;
    },
  };
}
