import { DEFAULT_AREA_OPTIONS } from '@mimamori/watch-engine/area-options';
import { describe, expect, it } from 'vitest';
import {
  type AreaDraft,
  actionProblem,
  draftFromStored,
  intervalProblem,
  newAction,
  newAreaLabel,
  newDraft,
  nextAreaId,
  settingsFromDraft,
  viewportProblem,
  type WizardDraft,
} from './wizard-draft.ts';

const area = (areaId: string, httpSuffices: boolean | null): AreaDraft => ({
  areaId,
  label: ` Price ${areaId} `,
  locator: { selector: `#${areaId}`, selector_type: 'css', frame_selector: '', frame_selector_type: '' },
  box: { x: 0, y: 0, width: 10, height: 10 },
  frameKey: '',
  options: { ...DEFAULT_AREA_OPTIONS, excludeDates: true },
  wordsText: 'sale\n\n  new  \n',
  regexesText: '\\d+ left\n',
  content: '¥1,280',
  httpSuffices,
});

const draft = (changes: Partial<WizardDraft>): WizardDraft => ({
  ...newDraft(),
  url: ' https://shop.example/item ',
  label: ' Shop ',
  areas: [area('area-1', true)],
  ...changes,
});

describe('the registration request', () => {
  it('carries the trimmed fields, area options with one word or pattern per line, and no empty rules', () => {
    const body = settingsFromDraft(
      draft({ interval: '10', rules: { combine: 'or', groups: [{ combine: 'and', conditions: [] }] } }),
    );
    expect(body).toMatchObject({
      label: 'Shop',
      url: 'https://shop.example/item',
      interval_minutes: 10,
      mail_notify: true,
      chat_notify: 'none',
      discord_webhook_url: '',
      user_agent: { kind: 'none', value: '' },
      actions: [],
      fetch_mode: 'http',
    });
    expect(body.rules).toBeUndefined();
    expect(body.login).toBeUndefined();
    expect(body.areas).toEqual([
      {
        area_id: 'area-1',
        label: 'Price area-1',
        content: '¥1,280',
        locator: { selector: '#area-1', selector_type: 'css', frame_selector: '', frame_selector_type: '' },
        options: {
          ...DEFAULT_AREA_OPTIONS,
          excludeDates: true,
          excludeWords: ['sale', 'new'],
          excludeRegexes: ['\\d+ left'],
        },
      },
    ]);
  });

  it('uses the browser when an area needs scripts, or for screenshots, actions or a login', () => {
    expect(settingsFromDraft(draft({ areas: [area('a', true), area('b', false)] })).fetch_mode).toBe(
      'browser',
    );
    expect(settingsFromDraft(draft({ screenshot: true })).fetch_mode).toBe('browser');
    expect(settingsFromDraft(draft({ actions: [{ ...newAction(), selector: '#more' }] })).fetch_mode).toBe(
      'browser',
    );
    const login = draft({ loginEnabled: true, loginActions: [{ ...newAction(), selector: '#go' }] });
    expect(settingsFromDraft(login).fetch_mode).toBe('browser');
    expect(settingsFromDraft(login).login?.verify).toEqual({ kind: 'replay', cookie_name: '' });
  });

  it('reads a PDF, JSON or XML document over plain HTTP, without pictures even when they were on', () => {
    const saved = settingsFromDraft(
      draft({ contentKind: 'json', screenshot: true, areas: [area('a', null)] }),
    );
    expect([saved.content_kind, saved.fetch_mode, saved.screenshot]).toEqual(['json', 'http', false]);
    expect(settingsFromDraft(draft({ screenshot: true })).screenshot).toBe(true);
  });

  it('sends the person’s wish that every check renders only for a site the browser reads', () => {
    expect(settingsFromDraft(draft({ screenshot: true, alwaysRender: true })).always_render).toBe(true);
    expect(settingsFromDraft(draft({ screenshot: true })).always_render).toBe(false);
    expect(settingsFromDraft(draft({ areas: [area('a', true)], alwaysRender: true })).always_render).toBe(
      false,
    );
  });

  it('keeps the stored fetch mode while a stored area was not read again', () => {
    expect(settingsFromDraft(draft({ areas: [area('a', null)], storedFetchMode: 'http' })).fetch_mode).toBe(
      'http',
    );
  });

  it('sends the element of a click and leaves it out of a URL change', () => {
    const body = settingsFromDraft(
      draft({
        actions: [
          { ...newAction(), selector: ' //button ', selectorType: 'xpath', frameSelector: 'iframe#f' },
          { ...newAction(), type: 'goto_url', value: 'https://shop.example/next' },
        ],
      }),
    );
    expect(body.actions).toEqual([
      {
        type: 'click',
        locator: {
          selector: '//button',
          selector_type: 'xpath',
          frame_selector: 'iframe#f',
          frame_selector_type: 'xpath',
        },
        value: '',
        skippable: false,
      },
      { type: 'goto_url', value: 'https://shop.example/next', skippable: false },
    ]);
  });

  it('sends a site webhook only when the site has its own chat link', () => {
    const url = 'https://discord.com/api/webhooks/1/abc';
    expect(
      settingsFromDraft(draft({ chatNotify: 'account', discordWebhookUrl: url })).discord_webhook_url,
    ).toBe('');
    expect(settingsFromDraft(draft({ chatNotify: 'site', discordWebhookUrl: url })).discord_webhook_url).toBe(
      url,
    );
  });
});

describe('the interval', () => {
  it('is refused below 1 minute or when not a whole number', () => {
    for (const value of ['0', '-5', '', '1.5', 'abc'])
      expect(intervalProblem(value)).toBe('interval_too_short');
    for (const value of ['1', '10', ' 60 ']) expect(intervalProblem(value)).toBeUndefined();
  });
});

describe('area ids', () => {
  it('are new for each added area, even after one was removed', () => {
    expect(nextAreaId([])).toBe('area-1');
    expect(nextAreaId([area('area-2', true)])).toBe('area-3');
  });
});

describe('a new area label', () => {
  const numbered = (number: number) => `エリア ${number}`;
  it('is the name the page suggests, numbered on when an area already has it', () => {
    expect(newAreaLabel('八女茶 価格', [], numbered)).toBe('八女茶 価格');
    expect(newAreaLabel('Shop', [{ label: 'Shop' }], numbered)).toBe('Shop 2');
    expect(newAreaLabel('Shop', [{ label: 'Shop' }, { label: 'Shop 2' }], numbered)).toBe('Shop 3');
  });

  it('is numbered when the page suggests none', () => {
    expect(newAreaLabel('', [{ label: 'Shop' }], numbered)).toBe('エリア 2');
  });
});

describe('edit mode', () => {
  it('turns the stored settings into a draft that saves the same settings again', () => {
    const stored = settingsFromDraft(
      draft({ interval: '1', silenceAlertDays: '7', rules: { combine: 'and', groups: [] } }),
    );
    const { cookies: _cookies, clear_cookies: _clear, viewport, ...storable } = stored;
    expect(stored.silence_alert_days).toBe(7);
    const again = draftFromStored({
      ...storable,
      silence_alert_days: 7,
      always_render: false,
      quiet_hours: { from: '', until: '', all_day: [], holidays: false, alerts_break_through: true },
      viewport: viewport ?? null,
      has_discord_webhook: false,
      has_cookies: false,
      login: null,
      actions: [],
      rules: null,
    });
    expect(again.areas[0]?.box).toBeNull();
    expect(settingsFromDraft(again)).toEqual(stored);
  });

  it('sends a site’s own quiet hours only when it keeps its own (docs/product.md#quiet-hours)', () => {
    const own = { from: '21:00', until: '06:30', all_day: [0], holidays: true, alerts_break_through: false };
    expect(settingsFromDraft(draft({ quietMode: 'own', quietHours: own }))).toMatchObject({
      quiet_mode: 'own',
      quiet_hours: own,
    });
    expect(settingsFromDraft(draft({ quietMode: 'none', quietHours: own }))).toMatchObject({
      quiet_mode: 'none',
      quiet_hours: null,
    });
    expect(settingsFromDraft(draft({}))).toMatchObject({ quiet_mode: 'account', quiet_hours: null });
  });

  it('sends typed cookies, keeps stored ones when left blank, and clears them only when asked', () => {
    expect(settingsFromDraft(draft({ cookies: ' session=abc ' }))).toMatchObject({
      cookies: 'session=abc',
      clear_cookies: false,
    });
    expect(settingsFromDraft(draft({ hasCookies: true }))).toMatchObject({
      cookies: '',
      clear_cookies: false,
    });
    expect(settingsFromDraft(draft({ hasCookies: true, clearCookies: true }))).toMatchObject({
      cookies: '',
      clear_cookies: true,
    });
  });

  it('sends a screen size only when one is given, and refuses one out of range', () => {
    expect(settingsFromDraft(draft({})).viewport).toBeUndefined();
    expect(settingsFromDraft(draft({ viewportWidth: '390', viewportHeight: '844' })).viewport).toEqual({
      width: 390,
      height: 844,
    });
    expect(viewportProblem({ viewportWidth: '390', viewportHeight: '844' })).toBeUndefined();
    expect(viewportProblem({ viewportWidth: '', viewportHeight: '' })).toBeUndefined();
    for (const [width, height] of [
      ['100', '800'],
      ['390', ''],
      ['5000', '800'],
      ['390.5', '800'],
    ]) {
      expect(viewportProblem({ viewportWidth: width ?? '', viewportHeight: height ?? '' })).toBe(
        'viewport_invalid',
      );
    }
  });

  it('keeps a paused site paused, and registers a new one monitoring', () => {
    expect(settingsFromDraft(draft({})).paused).toBe(false);
    expect(settingsFromDraft(draft({ paused: true })).paused).toBe(true);
  });
});

describe('an action checked before leaving its step', () => {
  it('needs an element to click or type into, and the text to type', () => {
    expect(actionProblem({ ...newAction(), selector: ' ' })).toBe('selector_required');
    expect(actionProblem({ ...newAction(), selector: '#go' })).toBeUndefined();
    expect(actionProblem({ ...newAction(), type: 'enter_text', selector: '#user' })).toBe(
      'action_value_required',
    );
    // A stored text is kept when left blank.
    expect(
      actionProblem({ ...newAction(), type: 'enter_text', selector: '#user', hasValue: true }),
    ).toBeUndefined();
  });

  it('needs a key to press and a web URL to go to', () => {
    expect(actionProblem({ ...newAction(), type: 'modifier_key' })).toBe('action_value_required');
    expect(actionProblem({ ...newAction(), type: 'modifier_key', value: 'Enter' })).toBeUndefined();
    expect(actionProblem({ ...newAction(), type: 'goto_url', value: 'shop.example' })).toBe('url_invalid');
    expect(
      actionProblem({ ...newAction(), type: 'goto_url', value: 'https://shop.example/a' }),
    ).toBeUndefined();
  });
});
