import { targetsEventsV1 } from '@mimamori/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEveryApiRouteDescribed } from '../../gateway/test/openapi-coverage.ts';
import { ROW_KEYS, targetBody } from './target-bodies.ts';
import type { TargetBrowser } from './target-browser.ts';
import { startTargetHarness, type TargetHarness } from './target-harness.ts';

let harness: TargetHarness;
let browser: TargetBrowser;
let userId: string;

beforeAll(async () => {
  harness = await startTargetHarness();
  ({ browser, userId } = await harness.signedIn('register@example.com'));
});

afterAll(async () => {
  await harness?.close();
});

const area = (overrides: Record<string, unknown>) => ({
  ...(targetBody().areas as object[])[0],
  ...overrides,
});
const withArea = (overrides: Record<string, unknown>) => targetBody({ areas: [area(overrides)] });
const clickOn = (selector: string, selector_type = 'css') => ({
  type: 'click',
  locator: { selector, selector_type },
});

describe('registering a v2 site', () => {
  it('saves every setting, seals the secrets, and publishes targets.registered with the check to run', async () => {
    const response = await browser.post(
      '/api/v2/target/register',
      targetBody({
        screenshot: true,
        always_render: true,
        chat_notify: 'site',
        discord_webhook_url: 'https://discord.com/api/webhooks/123/abc-DEF_ghi',
        cookies: 'session=secret-cookie',
        viewport: { width: 1280, height: 800 },
        quiet_mode: 'own',
        quiet_hours: {
          from: '22:00',
          until: '07:00',
          all_day: [6],
          holidays: true,
          alerts_break_through: false,
        },
        login: {
          actions: [
            { type: 'enter_text', locator: { selector: '#user' }, value: 'me@example.com' },
            {
              type: 'enter_text',
              locator: { selector: '//input[@type="password"]', selector_type: 'xpath' },
              value: 'hunter2',
            },
            clickOn('button[type=submit]'),
          ],
          verify: { kind: 'cookie', cookie_name: 'session' },
        },
        actions: [clickOn('#accept', 'css'), { type: 'modifier_key', value: 'Escape', skippable: true }],
        rules: {
          combine: 'or',
          groups: [
            {
              combine: 'and',
              conditions: [{ areaId: 'price', operand: 'all', operator: 'less', value: '1000' }],
            },
            { combine: 'and', conditions: [] },
          ],
        },
      }),
    );
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ paused: false, paused_for_quota: false });
    const id = response.body.target_v2_id as string;
    expect(Object.keys(response.body.target as object)).toEqual(expect.arrayContaining(ROW_KEYS));
    expect(response.body.target).toMatchObject({
      id,
      ver: 2,
      no: 1,
      label: 'Sale page',
      valid: true,
      new: false,
    });

    const { rows } = await harness.db.query<Record<string, string>>(
      'SELECT sealed_cookies, sealed_discord_webhook, login::text AS login, rules::text AS rules FROM target.targets WHERE id = $1',
      [id],
    );
    const stored = rows[0] ?? {};
    for (const secret of ['secret-cookie', 'hunter2', 'me@example.com', 'abc-DEF_ghi'])
      expect(JSON.stringify(stored)).not.toContain(secret);
    expect(harness.secretBox.open(stored.sealed_cookies ?? '', `target:${id}:cookies`)).toBe(
      'session=secret-cookie',
    );
    // The empty rule group was deleted on save.
    expect(JSON.parse(stored.rules ?? '{}').groups).toHaveLength(1);

    const [event] = await harness.events('targets.registered');
    const payload = targetsEventsV1.TargetStateChanged.decode(event?.payload ?? new Uint8Array());
    expect(event?.id).toBe(`targets.registered:${id}:1`);
    expect(payload).toMatchObject({ targetId: id, userId, version: 2, intervalMinutes: 60, paused: false });
    expect(payload.check).toMatchObject({
      targetId: id,
      url: 'https://shop.example/sale',
      fetchMode: 'browser',
      screenshot: 'page',
      viewportWidth: 1280,
      // The person insists on the browser: the crawler renders every check (ADR 0031).
      alwaysRender: true,
      areas: [{ areaId: 'price', locator: { selector: '#price', selectorType: 'css' } }],
    });
    // What the diff service judges the check with travels in the check (ADR 0008).
    const watch = payload.check?.watch;
    expect(watch?.screenshot).toBe(true);
    expect(watch?.areas.map((area) => area.areaId)).toEqual(['price']);
    expect(JSON.parse(watch?.areas[0]?.optionsJson ?? '')).toMatchObject({
      stripTags: true,
      excludeDates: true,
    });
    expect(JSON.parse(watch?.rulesJson ?? '')).toEqual(JSON.parse(stored.rules ?? ''));
    expect(payload.notice).toMatchObject({ label: 'Sale page', mailNotify: true, chatNotify: 'site' });
    // The site keeps its own quiet hours (docs/product.md#quiet-hours); the notifier reads them here.
    expect(payload.notice).toMatchObject({
      quietMode: 'own',
      quietHours: { from: '22:00', until: '07:00', allDay: [6], holidays: true, alertsBreakThrough: false },
    });
    const edited = await browser.get(`/api/v2/target?id=${id}`);
    expect(edited.body.settings).toMatchObject({
      quiet_mode: 'own',
      quiet_hours: {
        from: '22:00',
        until: '07:00',
        all_day: [6],
        holidays: true,
        alerts_break_through: false,
      },
    });
    // The notifier names areas in updates as the person named them.
    expect(payload.notice?.areas).toEqual([{ areaId: 'price', label: 'Price' }]);
    expect(
      harness.secretBox.open(payload.notice?.sealedDiscordWebhook ?? '', `target:${id}:discord_webhook`),
    ).toBe('https://discord.com/api/webhooks/123/abc-DEF_ghi');
    const password = payload.check?.login?.actions[1]?.sealedValue ?? '';
    expect(harness.secretBox.open(password, `target:${id}:login:1`)).toBe('hunter2');
  });

  it('has the checks present the account’s language and time zone as they were at the last save', async () => {
    const reader = await harness.signedIn('reader@example.com');
    const register = await reader.browser.post('/api/v2/target/register', targetBody());
    expect(register.status).toBe(201);
    const id = register.body.target_v2_id as string;
    const stateOf = async (subject: string) => {
      const events = await harness.events(subject);
      const mine = events
        .map((event) => targetsEventsV1.TargetStateChanged.decode(event.payload))
        .filter((state) => state.targetId === id);
      return mine.at(-1);
    };
    // Signed up in English without a zone (the harness's sign-up sends none).
    expect((await stateOf('targets.registered'))?.check).toMatchObject({
      readerLang: 'en',
      readerTimeZone: '',
    });
    await harness.db.query(`UPDATE account.users SET lang = 'ja', timezone = 'Asia/Tokyo' WHERE id = $1`, [
      reader.userId,
    ]);
    const update = await reader.browser.post('/api/v2/target/update', { ...targetBody(), target_v2_id: id });
    expect(update.status).toBe(200);
    expect((await stateOf('targets.updated'))?.check).toMatchObject({
      readerLang: 'ja',
      readerTimeZone: 'Asia/Tokyo',
    });
  });

  it('shows the settings to the owner without secrets, and an update with blank secrets keeps them', async () => {
    const registered = await browser.post(
      '/api/v2/target/register',
      targetBody({
        cookies: 'a=1',
        login: {
          actions: [{ type: 'enter_text', locator: { selector: '#pw' }, value: 'pw-1' }],
          verify: { kind: 'replay' },
        },
      }),
    );
    const id = registered.body.target_v2_id as string;
    const shown = await browser.get(`/api/v2/target?id=${id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.settings).toMatchObject({
      has_cookies: true,
      login: { actions: [{ type: 'enter_text', value: '', has_value: true }] },
      areas: [{ area_id: 'price', options: { stripTags: true, excludeDates: true, excludeNumbers: false } }],
    });
    expect(shown.text).not.toContain('pw-1');

    const updated = await browser.post('/api/v2/target/update', {
      ...targetBody({
        label: 'Renamed',
        interval_minutes: 30,
        login: {
          actions: [{ type: 'enter_text', locator: { selector: '#pw' }, value: '' }],
          verify: { kind: 'replay' },
        },
      }),
      target_v2_id: id,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.target).toMatchObject({ label: 'Renamed', interval_minutes: 30 });
    const { rows } = await harness.db.query<{
      sealed_cookies: string;
      login: { actions: { sealedValue: string }[] };
    }>('SELECT sealed_cookies, login FROM target.targets WHERE id = $1', [id]);
    expect(harness.secretBox.open(rows[0]?.sealed_cookies ?? '', `target:${id}:cookies`)).toBe('a=1');
    expect(harness.secretBox.open(rows[0]?.login.actions[0]?.sealedValue ?? '', `target:${id}:login:0`)).toBe(
      'pw-1',
    );
    expect((await harness.events('targets.updated')).map((event) => event.id)).toContain(
      `targets.updated:${id}:2`,
    );
  });

  const refusals: [string, Record<string, unknown>, string, string, string?][] = [
    ['a missing URL', targetBody({ url: '' }), 'url_required', 'url'],
    ['a URL that is not http(s)', targetBody({ url: 'file:///etc/passwd' }), 'url_invalid', 'url'],
    [
      'an interval under 1 minute',
      targetBody({ interval_minutes: 0 }),
      'interval_too_short',
      'interval_minutes',
    ],
    ['a label too long', targetBody({ label: 'x'.repeat(201) }), 'label_too_long', 'label'],
    ['no area', targetBody({ areas: [] }), 'areas_required', 'areas'],
    [
      'an unparsable CSS selector',
      withArea({ locator: { selector: 'div[' } }),
      'selector_invalid',
      'areas[0].locator.selector',
      'css',
    ],
    [
      'an unparsable XPath',
      withArea({ locator: { selector: '//div[@id=', selector_type: 'xpath' } }),
      'selector_invalid',
      'areas[0].locator.selector',
      'xpath',
    ],
    [
      'an unknown selector type',
      withArea({ locator: { selector: '#a', selector_type: 'jquery' } }),
      'selector_type_invalid',
      'areas[0].locator.selector_type',
    ],
    [
      'an area without a selector',
      withArea({ locator: { selector: ' ' } }),
      'selector_required',
      'areas[0].locator.selector',
    ],
    ['an invalid area id', withArea({ area_id: 'a b' }), 'area_id_invalid', 'areas[0].area_id'],
    [
      'two areas with one id',
      targetBody({ areas: [area({}), area({})] }),
      'area_id_duplicate',
      'areas[1].area_id',
    ],
    [
      'an exclude regex Python would refuse',
      withArea({ options: { excludeRegexes: ['\\d+', '(?<name>x)'] } }),
      'invalid_area_options',
      'areas[0].options.excludeRegexes[1]',
      'syntax_error',
    ],
    [
      'a lookaround RE2 cannot run',
      withArea({ options: { excludeRegexes: ['a(?=b)'] } }),
      'invalid_area_options',
      'areas[0].options.excludeRegexes[0]',
      'unsupported_lookaround',
    ],
    [
      'an option of the wrong type',
      withArea({ options: { stripTags: 'yes' } }),
      'invalid_area_options',
      'areas[0].options.stripTags',
      'invalid_type',
    ],
    [
      'a rule on an unknown area',
      targetBody({
        rules: {
          combine: 'and',
          groups: [
            {
              combine: 'and',
              conditions: [{ areaId: 'nope', operand: 'all', operator: 'keyword', value: 'x' }],
            },
          ],
        },
      }),
      'invalid_rules',
      'rules.groups[0].conditions[0].areaId',
      'unknown_area',
    ],
    [
      'a numeric rule on the added part',
      targetBody({
        rules: {
          combine: 'and',
          groups: [
            {
              combine: 'and',
              conditions: [{ areaId: 'price', operand: 'new', operator: 'greater', value: '5' }],
            },
          ],
        },
      }),
      'invalid_rules',
      'rules.groups[0].conditions[0].operand',
      'numeric_needs_all',
    ],
    [
      'an unknown user agent',
      targetBody({ user_agent: { kind: 'netscape' } }),
      'user_agent_invalid',
      'user_agent',
    ],
    [
      'a free user agent left blank',
      targetBody({ user_agent: { kind: 'free', value: '' } }),
      'user_agent_required',
      'user_agent.value',
    ],
    [
      'a screen too small',
      targetBody({ viewport: { width: 10, height: 10 } }),
      'viewport_invalid',
      'viewport',
    ],
    [
      'an unknown chat notification',
      targetBody({ chat_notify: 'line' }),
      'chat_notify_invalid',
      'chat_notify',
    ],
    [
      'a webhook that is not Discord',
      targetBody({ chat_notify: 'site', discord_webhook_url: 'https://evil.example/api/webhooks/1/x' }),
      'discord_webhook_invalid',
      'discord_webhook_url',
    ],
    [
      'an unknown action',
      targetBody({ actions: [{ type: 'hover', locator: { selector: '#a' } }] }),
      'action_type_invalid',
      'actions[0].type',
    ],
    [
      'a text action without text',
      targetBody({ actions: [{ type: 'enter_text', locator: { selector: '#q' } }] }),
      'action_value_required',
      'actions[0].value',
    ],
    [
      'a go-to action to a bad URL',
      targetBody({ actions: [{ type: 'goto_url', value: 'javascript:x' }] }),
      'url_invalid',
      'actions[0].value',
    ],
    [
      'a frame selector that does not parse',
      targetBody({ actions: [{ type: 'click', locator: { selector: '#a', frame_selector: '!!' } }] }),
      'selector_invalid',
      'actions[0].locator.frame_selector',
      'css',
    ],
    [
      'a login without a way to verify it',
      targetBody({ login: { actions: [clickOn('#go')], verify: { kind: 'guess' } } }),
      'login_verify_invalid',
      'login.verify.kind',
    ],
    [
      'a cookie check without the cookie name',
      targetBody({ login: { actions: [clickOn('#go')], verify: { kind: 'cookie' } } }),
      'login_cookie_name_required',
      'login.verify.cookie_name',
    ],
    [
      'an unknown fetch mode',
      targetBody({ fetch_mode: 'carrier-pigeon' }),
      'fetch_mode_invalid',
      'fetch_mode',
    ],
    [
      'a screenshot on the HTTP path',
      targetBody({ fetch_mode: 'http', screenshot: true }),
      'fetch_mode_needs_browser',
      'fetch_mode',
    ],
  ];

  it.each(refusals)('refuses %s, naming the field', async (_what, body, code, field, reason) => {
    const before = await harness.db.query('SELECT count(*)::int AS n FROM target.targets');
    const response = await browser.post('/api/v2/target/register', body);
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({
      code,
      message_key: `errors.${code}`,
      field,
      ...(reason ? { reason } : {}),
    });
    expect((await harness.db.query('SELECT count(*)::int AS n FROM target.targets')).rows).toEqual(
      before.rows,
    );
  });

  it('takes a site of its own chat links without a Discord webhook: they are linked on its page', async () => {
    const response = await browser.post('/api/v2/target/register', targetBody({ chat_notify: 'site' }));
    expect(response.status, response.text).toBe(201);
  });

  it('refuses a body of the wrong shape before it reaches the service', async () => {
    const response = await browser.post('/api/v2/target/register', targetBody({ interval_minutes: 'often' }));
    expect(response).toMatchObject({
      status: 400,
      body: { error: { code: 'bad_request', field: 'interval_minutes' } },
    });
  });

  it('refuses a signed-out visitor', async () => {
    const { TargetBrowser } = await import('./target-browser.ts');
    const visitor = new TargetBrowser(harness.gateway.app);
    await visitor.get('/healthz');
    expect((await visitor.post('/api/v2/target/register', targetBody())).status).toBe(401);
    expect((await visitor.get('/api/v2/targets')).status).toBe(401);
  });
});

describe('the OpenAPI document', () => {
  it('describes every site route the gateway serves, with its method', async () => {
    const document = await expectEveryApiRouteDescribed(harness.gateway.app);
    const siteRoutes = [
      ['get', '/api/v2/targets'],
      ['get', '/api/v2/target'],
      ['post', '/api/v2/target/register'],
      ['post', '/api/v2/target/update'],
      ['post', '/api/v1/import'],
      ...['/api', '/api/v2'].flatMap((prefix) =>
        ['pause', 'resume', 'seen', 'delete'].map((action) => ['post', `${prefix}/${action}`]),
      ),
    ] as const;
    expect(siteRoutes.length).toBe(13);
    for (const [method, path] of siteRoutes) expect(document.paths[path]?.[method], path).toBeDefined();
  });
});
