import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { linkFromMailbox } from './mailbox.ts';
import {
  apiOf,
  expectNoSeriousAxeViolations,
  expectNoSidewaysOverflow,
  NARROW,
  openNavigation,
  openPage,
  productAndBrowser,
  SIGN_UP_LABELS,
  shots,
  signedUpAndIn,
  WIDE,
} from './steps.ts';

// docs/product.md#workspaces in one product: the owner invites an editor and a viewer from the
// members screen, each accepts from the mail; the viewer is offered no change and the API refuses
// them with 403; the editor's change works; ownership moves to another member. The switcher and
// members screens are photographed in both languages at both widths.
const running = productAndBrowser();
const PASSWORD = 'members-pass-1';
/** The closing note's pictures (also kept beside the other e2e screenshots). */
const NOTE_SHOTS = process.env.WORKSPACE_SHOTS_DIR ?? shots;

const url = (path: string) => new URL(path, running.product.url).href;

async function person(email: string): Promise<Page> {
  const page = await openPage(running.browser, 'ja-JP', WIDE);
  await signedUpAndIn(page, running.product.url, { email, password: PASSWORD, labels: SIGN_UP_LABELS.ja });
  return page;
}

async function invite(owner: Page, email: string, role: '編集者' | '閲覧者') {
  await owner.getByLabel('メールアドレス').fill(email);
  await owner.getByLabel('役割', { exact: true }).selectOption({ label: role });
  await owner.getByRole('button', { name: '招待を送る' }).click();
  await expect.poll(() => owner.getByRole('status').textContent()).toContain(email);
}

async function accept(page: Page, email: string) {
  const link = await linkFromMailbox(running.product.url, email, '/invitation');
  await page.goto(url(link));
  await page.waitForURL((address) => address.pathname === '/');
}

/** The same screen in both languages at both widths: axe, no sideways scroll, and the picture. */
async function photograph(page: Page, name: string, path: string, part: () => ReturnType<Page['locator']>) {
  await mkdir(NOTE_SHOTS, { recursive: true });
  for (const language of ['ja', 'en'] as const) {
    await page.evaluate((chosen) => localStorage.setItem('mimamori.language', chosen), language);
    for (const size of [WIDE, NARROW]) {
      await page.setViewportSize(size);
      await page.goto(url(path));
      await expect.poll(() => part().count(), { timeout: 15_000 }).toBeGreaterThan(0);
      await expectNoSidewaysOverflow(page);
      await expectNoSeriousAxeViolations(page);
      const file = join(NOTE_SHOTS, `37-${name}-${language}-${size.width}.png`);
      if (name === 'switcher') await part().first().screenshot({ path: file });
      else await page.screenshot({ path: file, fullPage: true });
    }
  }
  await page.evaluate(() => localStorage.setItem('mimamori.language', 'ja'));
  await page.reload();
  await page.setViewportSize(WIDE);
}

describe('workspaces: members, roles and invitations (docs/product.md#workspaces)', () => {
  it('invites an editor and a viewer who accept by mail; the viewer changes nothing; the editor does; ownership moves', async () => {
    const owner = await person('owner@example.com');
    const imported = await apiOf(owner.context(), running.product.url).post('/api/v1/import', {
      text: `${url('/mock/ec')},共有ショップ`,
    });
    expect(imported.status).toBe(200);
    const ownerId = (
      (await apiOf(owner.context(), running.product.url).get('/api/user_info')).body as {
        user_id: string;
      }
    ).user_id;

    await owner.goto(url('/members'));
    await invite(owner, 'editor@example.com', '編集者');
    await invite(owner, 'viewer@example.com', '閲覧者');
    await expect.poll(() => owner.getByTestId('invitation').count()).toBe(2);

    const editor = await person('editor@example.com');
    const viewer = await person('viewer@example.com');
    await accept(editor, 'editor@example.com');
    await accept(viewer, 'viewer@example.com');
    for (const page of [editor, viewer]) {
      const info = (await apiOf(page.context(), running.product.url).get('/api/user_info')).body;
      expect(info).toMatchObject({ user_id: ownerId });
    }

    // The viewer sees the shared site and no change button anywhere.
    await expect.poll(() => viewer.getByText('共有ショップ').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await viewer.getByRole('button', { name: /一時停止|削除|再開/ }).count()).toBe(0);
    for (const name of ['サイトを登録', 'URLリストから一括登録']) {
      expect(await viewer.getByRole('button', { name, exact: true }).count(), name).toBe(0);
      expect(await viewer.getByRole('link', { name, exact: true }).count(), name).toBe(0);
    }
    await openNavigation(viewer);
    expect(await viewer.getByRole('link', { name: 'サイト登録' }).count()).toBe(0);
    await viewer.goto(url('/account'));
    await expect
      .poll(() => viewer.getByTestId('member-account-notice').textContent())
      .toContain('変更はできません');
    // A viewer sees everything: the subscription and the channels, every control disabled.
    await expect
      .poll(() => viewer.getByRole('region', { name: 'Webhook' }).count(), { timeout: 15_000 })
      .toBe(1);
    await expect
      .poll(() => viewer.getByTestId('subscription-owner-manages').count(), { timeout: 15_000 })
      .toBe(1);
    const shown = viewer.getByTestId('read-only-sections');
    expect(await shown.locator('button, input, select, textarea').count()).toBeGreaterThan(0);
    expect(
      await shown.locator('button:enabled, input:enabled, select:enabled, textarea:enabled').count(),
    ).toBe(0);
    await photograph(viewer, 'viewer-account', '/account', () => viewer.getByTestId('read-only-sections'));
    await viewer.goto(url('/members'));
    await expect.poll(() => viewer.getByTestId('your-role').textContent()).toContain('閲覧者');
    expect(await viewer.getByRole('button', { name: '招待を送る' }).count()).toBe(0);
    // And the API refuses the viewer's change with 403 and a message.
    const sites = (await apiOf(viewer.context(), running.product.url).get('/api/v2/targets')).body as {
      targets?: { id: string }[];
    };
    const siteId = String(sites.targets?.[0]?.id ?? '');
    const refused = await apiOf(viewer.context(), running.product.url).post('/api/pause', {
      target_id: siteId,
    });
    expect(refused).toEqual({
      status: 403,
      body: { error: { code: 'role_forbidden', message_key: 'errors.role_forbidden' } },
    });

    // The editor's change works, from the dashboard's own button.
    await editor.goto(url('/'));
    const pause = editor.getByRole('button', { name: '共有ショップ を一時停止' }).first();
    await expect.poll(() => pause.count(), { timeout: 15_000 }).toBe(1);
    await pause.click();
    await expect
      .poll(async () => {
        const listed = (await apiOf(owner.context(), running.product.url).get('/api/v2/targets')).body as {
          targets?: { valid: boolean }[];
        };
        return listed.targets?.map((target) => target.valid);
      })
      .toEqual([false]);

    // The audit log names the editor for the pause, and the owner for the invitations.
    type Entry = {
      action: string;
      actor: { person_id: string | null; label: string };
      subject: { label: string };
    };
    const entries = async () =>
      ((await apiOf(owner.context(), running.product.url).get('/api/audit')).body as { entries: Entry[] })
        .entries;
    await expect
      .poll(async () => (await entries()).find((entry) => entry.action === 'site.paused')?.actor.label)
      .toContain('editor@example.com');
    const invited = (await entries()).filter((entry) => entry.action === 'member.invited');
    expect(
      invited.map((entry) => [entry.subject.label, entry.actor.label.includes('owner@example.com')]),
    ).toEqual([
      ['viewer@example.com', true],
      ['editor@example.com', true],
    ]);
    expect((await entries()).filter((entry) => entry.action === 'member.joined')).toHaveLength(2);
    // A viewer does not see the audit log: owners and admins only.
    expect((await apiOf(viewer.context(), running.product.url).get('/api/audit')).status).toBe(403);

    // Screens: the editor has two workspaces to switch between; the owner's members screen.
    await photograph(editor, 'switcher', '/', () => editor.locator('header.top-nav'));
    await owner.goto(url('/members'));
    await expect.poll(() => owner.getByTestId('member').count()).toBe(3);
    await photograph(owner, 'members', '/members', () => owner.getByTestId('member'));

    // Ownership moves to the editor; the old owner is an admin.
    await owner.goto(url('/members'));
    const editorRow = owner.getByTestId('member').filter({ hasText: 'editor@example.com' });
    await editorRow.getByRole('button', { name: 'オーナーを譲る' }).click();
    await owner.getByRole('alertdialog').getByRole('button', { name: 'オーナーを譲る' }).click();
    await expect.poll(() => owner.getByTestId('your-role').textContent()).toContain('管理者');
    const roles = (await apiOf(editor.context(), running.product.url).get('/api/workspace/members')).body as {
      role: string;
      members: { email: string; role: string }[];
    };
    expect(roles.role).toBe('owner');
    await expect
      .poll(
        async () =>
          (await entries()).find((entry) => entry.action === 'member.ownership_transferred')?.subject.label,
      )
      .toBe('editor@example.com');
    expect(roles.members.map((member) => [member.email, member.role])).toEqual([
      ['owner@example.com', 'admin'],
      ['editor@example.com', 'owner'],
      ['viewer@example.com', 'viewer'],
    ]);
    for (const page of [owner, editor, viewer]) await page.context().close();
  }, 420_000);
});
