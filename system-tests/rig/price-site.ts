/**
 * The registration of a watched page's price area as the pipeline and fault tests make it:
 * checked every minute in the browser, with a screenshot, by e-mail and the account's Discord.
 */
export function priceSiteRegistration(label: string, url: string) {
  return {
    label,
    url,
    interval_minutes: 1,
    screenshot: true,
    mail_notify: true,
    chat_notify: 'account',
    user_agent: { kind: 'chrome', value: '' },
    areas: [
      {
        area_id: 'price',
        label: 'Price',
        content: '¥1,200',
        locator: { selector: '#price', selector_type: 'css' },
        options: { stripTags: true },
      },
    ],
    rules: { combine: 'and', groups: [] },
    fetch_mode: 'browser',
  };
}
