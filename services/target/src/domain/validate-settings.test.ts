import { describe, expect, it } from 'vitest';
import type { SettingsInput } from './settings-input.ts';
import { TargetProblem } from './target-problem.ts';
import type { TargetRecord } from './target-record.ts';
import { validateSettings } from './validate-settings.ts';

const seal = (plaintext: string, context: string) => `sealed(${context}:${plaintext})`;
const context = { targetId: 't1', previous: null, seal, proxyPool: false };

function input(overrides: Partial<SettingsInput> = {}): SettingsInput {
  return {
    label: ' Label ',
    url: 'https://example.com/a',
    intervalMinutes: 60,
    screenshot: false,
    useProxy: false,
    mailNotify: true,
    chatNotify: 'none',
    discordWebhookUrl: '',
    userAgentKind: 'none',
    userAgentValue: '',
    viewportWidth: 0,
    viewportHeight: 0,
    cookies: '',
    clearCookies: false,
    login: null,
    actions: [],
    areas: [
      {
        areaId: 'a',
        label: '',
        content: '',
        locator: { selector: '#a', selectorType: 'css', frameSelector: '', frameSelectorType: '' },
        optionsJson: '',
      },
    ],
    rulesJson: '',
    fetchMode: 'http',
    contentKind: '',
    paused: false,
    failureAlertAfter: 0,
    silenceAlertDays: 0,
    alwaysRender: false,
    quietMode: '',
    quietHours: null,
    ...overrides,
  };
}

function refusal(work: () => unknown): Pick<TargetProblem, 'code' | 'field' | 'reason'> {
  try {
    work();
  } catch (error) {
    if (error instanceof TargetProblem) return { code: error.code, field: error.field, reason: error.reason };
    throw error;
  }
  throw new Error('accepted');
}

describe('validateSettings', () => {
  it("trims the label, normalises the URL, and gives areas the watch engine's default options", () => {
    const saved = validateSettings(input({ url: ' https://EXAMPLE.com/a ' }), context);
    expect(saved.label).toBe('Label');
    expect(saved.url).toBe('https://example.com/a');
    expect(saved.areas[0]?.options).toMatchObject({ stripTags: true, excludeWords: [], excludeRegexes: [] });
    expect(saved.rules).toBeNull();
  });

  it('seals a per-site webhook and cookies for this site, keeps them on update when left blank, drops them when told', () => {
    const first = validateSettings(
      input({
        chatNotify: 'site',
        discordWebhookUrl: 'https://discord.com/api/webhooks/1/token',
        cookies: 'a=1',
        fetchMode: 'browser',
      }),
      context,
    );
    expect(first.sealedDiscordWebhook).toBe(
      'sealed(target:t1:discord_webhook:https://discord.com/api/webhooks/1/token)',
    );
    expect(first.sealedCookies).toBe('sealed(target:t1:cookies:a=1)');
    const previous = { ...first, id: 't1' } as TargetRecord;

    const kept = validateSettings(input({ chatNotify: 'site' }), { ...context, previous });
    expect([kept.sealedDiscordWebhook, kept.sealedCookies]).toEqual([
      first.sealedDiscordWebhook,
      first.sealedCookies,
    ]);

    const dropped = validateSettings(input({ chatNotify: 'account', clearCookies: true }), {
      ...context,
      previous,
    });
    expect([dropped.sealedDiscordWebhook, dropped.sealedCookies]).toEqual(['', '']);
  });

  it('keeps a stored login text only for the same action on the same element', () => {
    const enterPassword = (selector: string, value: string) => ({
      type: 'enter_text',
      locator: { selector, selectorType: 'css', frameSelector: '', frameSelectorType: '' },
      value,
      skippable: false,
    });
    const login = (selector: string, value: string) => ({
      actions: [enterPassword(selector, value)],
      verifyKind: 'replay',
      verifyCookieName: '',
    });
    const first = validateSettings(input({ fetchMode: 'browser', login: login('#pw', 'secret') }), context);
    const previous = { ...first, id: 't1' } as TargetRecord;
    const kept = validateSettings(input({ fetchMode: 'browser', login: login('#pw', '') }), {
      ...context,
      previous,
    });
    expect(kept.login?.actions[0]?.sealedValue).toBe('sealed(target:t1:login:0:secret)');
    expect(
      refusal(() =>
        validateSettings(input({ fetchMode: 'browser', login: login('#other', '') }), {
          ...context,
          previous,
        }),
      ),
    ).toEqual({ code: 'action_value_required', field: 'login.actions[0].value', reason: '' });
  });

  it('deletes empty rule groups and keeps none when all are empty', () => {
    const rules = (groups: unknown[]) => JSON.stringify({ combine: 'or', groups });
    const condition = { areaId: 'a', operand: 'all', operator: 'keyword', value: 'x' };
    const saved = validateSettings(
      input({
        rulesJson: rules([
          { combine: 'and', conditions: [] },
          { combine: 'and', conditions: [condition] },
        ]),
      }),
      context,
    );
    expect(saved.rules?.groups).toHaveLength(1);
    expect(
      validateSettings(input({ rulesJson: rules([{ combine: 'and', conditions: [] }]) }), context).rules,
    ).toBeNull();
  });

  it('refuses options or rules that are not JSON, naming the field', () => {
    const area = input().areas[0];
    if (!area) throw new Error('no area');
    expect(
      refusal(() => validateSettings(input({ areas: [{ ...area, optionsJson: '{' }] }), context)),
    ).toEqual({
      code: 'invalid_area_options',
      field: 'areas[0].options',
      reason: 'invalid_json',
    });
    expect(refusal(() => validateSettings(input({ rulesJson: 'nope' }), context))).toEqual({
      code: 'invalid_rules',
      field: 'rules',
      reason: 'invalid_json',
    });
  });

  it('keeps the wish that every check renders for a browser site only', () => {
    expect(validateSettings(input({ fetchMode: 'browser', alwaysRender: true }), context).alwaysRender).toBe(
      true,
    );
    expect(validateSettings(input({ fetchMode: 'browser' }), context).alwaysRender).toBe(false);
    expect(validateSettings(input({ fetchMode: 'http', alwaysRender: true }), context).alwaysRender).toBe(
      false,
    );
  });

  it('refuses a fractional or too long interval', () => {
    expect(refusal(() => validateSettings(input({ intervalMinutes: 1.5 }), context)).code).toBe(
      'interval_too_short',
    );
    expect(refusal(() => validateSettings(input({ intervalMinutes: 10_081 }), context)).code).toBe(
      'interval_too_long',
    );
  });

  it('takes a silence alert of 1–365 days or none, and refuses other numbers naming the field', () => {
    expect(validateSettings(input({ silenceAlertDays: 0 }), context).silenceAlertDays).toBe(0);
    expect(validateSettings(input({ silenceAlertDays: 30 }), context).silenceAlertDays).toBe(30);
    for (const days of [-1, 366, 2.5]) {
      expect(refusal(() => validateSettings(input({ silenceAlertDays: days }), context))).toMatchObject({
        code: 'silence_alert_days_invalid',
        field: 'silence_alert_days',
      });
    }
  });

  it('keeps the account’s quiet hours, none, or its own checked as the account’s are (docs/product.md#quiet-hours)', () => {
    const own = { from: '22:00', until: '07:00', allDay: [6, 0], holidays: true, alertsBreakThrough: false };
    const none = { from: '', until: '', allDay: [], holidays: false, alertsBreakThrough: true };
    expect(validateSettings(input(), context)).toMatchObject({ quietMode: 'account', quietHours: none });
    // Hours sent with another mode are not kept.
    expect(validateSettings(input({ quietMode: 'none', quietHours: own }), context)).toMatchObject({
      quietMode: 'none',
      quietHours: none,
    });
    expect(validateSettings(input({ quietMode: 'own', quietHours: own }), context)).toMatchObject({
      quietMode: 'own',
      quietHours: { ...own, allDay: [0, 6] },
    });
    expect(refusal(() => validateSettings(input({ quietMode: 'later' }), context))).toMatchObject({
      code: 'quiet_mode_invalid',
      field: 'quiet_mode',
    });
    expect(
      refusal(() =>
        validateSettings(input({ quietMode: 'own', quietHours: { ...own, until: '22:00' } }), context),
      ),
    ).toMatchObject({ code: 'quiet_hours_time_invalid', field: 'quiet_hours' });
    expect(
      refusal(() =>
        validateSettings(input({ quietMode: 'own', quietHours: { ...own, allDay: [7] } }), context),
      ),
    ).toMatchObject({ code: 'quiet_hours_day_invalid', field: 'quiet_hours' });
  });

  it('refuses the proxy option where the crawlers have no proxy pool, and keeps it where they do', () => {
    expect(refusal(() => validateSettings(input({ useProxy: true }), context))).toEqual({
      code: 'proxy_unavailable',
      field: 'proxy',
      reason: '',
    });
    expect(validateSettings(input({ useProxy: true }), { ...context, proxyPool: true }).useProxy).toBe(true);
    expect(validateSettings(input({ useProxy: false }), context).useProxy).toBe(false);
  });

  describe('a document target (docs/product.md#documents-and-data)', () => {
    const documentArea = (selector: string, selectorType: string) => ({
      areaId: 'a',
      label: '',
      content: '',
      locator: { selector, selectorType, frameSelector: '', frameSelectorType: '' },
      optionsJson: '',
    });
    const documentInput = (contentKind: string, selector: string, selectorType: string) =>
      input({ contentKind, areas: [documentArea(selector, selectorType)] });

    it('stores the kind and each area as its kind names it; a page is the default', () => {
      expect(validateSettings(input(), context).contentKind).toBe('page');
      const pdf = validateSettings(documentInput('pdf', ' 2-3 ', 'pages'), context);
      expect(pdf.contentKind).toBe('pdf');
      expect(pdf.areas[0]?.locator).toEqual({
        selector: '2-3',
        selectorType: 'pages',
        frameSelector: '',
        frameSelectorType: '',
      });
      expect(
        validateSettings(documentInput('pdf', '配当予想', 'text'), context).areas[0]?.locator.selector,
      ).toBe('配当予想');
      expect(
        validateSettings(documentInput('json', '$.items[*].price', 'jsonpath'), context).contentKind,
      ).toBe('json');
      expect(validateSettings(documentInput('xml', '//item/title', 'xpath'), context).contentKind).toBe(
        'xml',
      );
    });

    it('refuses an expression that does not parse, naming the area and what is wrong', () => {
      expect(refusal(() => validateSettings(documentInput('json', '$.items[', 'jsonpath'), context))).toEqual(
        {
          code: 'selector_invalid',
          field: 'areas[0].locator.selector',
          reason: 'jsonpath_invalid',
        },
      );
      expect(
        refusal(() => validateSettings(documentInput('json', '$.items[?(@.price>1)]', 'jsonpath'), context)),
      ).toEqual({ code: 'selector_invalid', field: 'areas[0].locator.selector', reason: 'jsonpath_script' });
      expect(refusal(() => validateSettings(documentInput('xml', '//item[', 'xpath'), context))).toEqual({
        code: 'selector_invalid',
        field: 'areas[0].locator.selector',
        reason: 'xpath_invalid',
      });
      expect(refusal(() => validateSettings(documentInput('pdf', '3-1', 'pages'), context))).toEqual({
        code: 'selector_invalid',
        field: 'areas[0].locator.selector',
        reason: 'page_range_invalid',
      });
      expect(refusal(() => validateSettings(documentInput('pdf', '#price', 'css'), context))).toEqual({
        code: 'selector_type_invalid',
        field: 'areas[0].locator.selector_type',
        reason: '',
      });
    });

    it('refuses an unknown kind, and a document read by the browser', () => {
      expect(refusal(() => validateSettings(documentInput('csv', '$', 'jsonpath'), context))).toMatchObject({
        code: 'content_kind_invalid',
      });
      expect(
        refusal(() =>
          validateSettings({ ...documentInput('json', '$.a', 'jsonpath'), fetchMode: 'browser' }, context),
        ),
      ).toEqual({ code: 'content_kind_needs_http', field: 'fetch_mode', reason: '' });
      // Pictures need the browser too: said as the document's own refusal, on the field that asks for them.
      expect(
        refusal(() =>
          validateSettings({ ...documentInput('json', '$.a', 'jsonpath'), screenshot: true }, context),
        ),
      ).toEqual({ code: 'content_kind_needs_http', field: 'screenshot', reason: '' });
    });
  });
});
