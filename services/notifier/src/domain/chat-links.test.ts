import { describe, expect, it } from 'vitest';
import { accountChatLinks, chatLinksForSite } from './chat-links.ts';

const link = (id: string, targetId: string) => ({
  id,
  platform: 'chatwork',
  targetId,
  sealedCredentials: 'x',
});
const links = [link('wide', ''), link('own', 't1'), link('other', 't2')];

describe('which chat links a message goes to', () => {
  it('follows the site’s chat notice: off, the account’s and its own, or its own only', () => {
    const ids = (chatNotify: string) =>
      chatLinksForSite(links, { targetId: 't1', chatNotify }).map((chosen) => chosen.id);
    expect(ids('none')).toEqual([]);
    expect(ids('account')).toEqual(['wide', 'own']);
    expect(ids('site')).toEqual(['own']);
  });

  it('sends what is about the account (a filing) to the account-wide links only', () => {
    expect(accountChatLinks(links).map((chosen) => chosen.id)).toEqual(['wide']);
  });
});
