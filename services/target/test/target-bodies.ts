/** A valid v2 registration body, as the wizard sends it; tests change one field at a time. */
export function targetBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    label: 'Sale page',
    url: 'https://shop.example/sale',
    interval_minutes: 60,
    screenshot: false,
    proxy: false,
    mail_notify: true,
    chat_notify: 'none',
    user_agent: { kind: 'chrome', value: '' },
    actions: [],
    areas: [
      {
        area_id: 'price',
        label: 'Price',
        content: '¥1,200',
        locator: { selector: '#price', selector_type: 'css' },
        options: { stripTags: true, excludeDates: true },
      },
    ],
    rules: { combine: 'and', groups: [] },
    fetch_mode: 'browser',
    ...overrides,
  };
}

/** The part of a site-list row every row has (docs/product.md#targets). */
export const ROW_KEYS = [
  'id',
  'ver',
  'no',
  'label',
  'url',
  'valid',
  'new',
  'proxy',
  'updated',
  'checked',
  'resumable',
  'paused_for_hold',
];
