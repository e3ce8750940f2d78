/** The first mail a new account receives, in its language. */
export function welcomeMail(lang: string): { subject: string; text: string } {
  if (lang === 'en') {
    return {
      subject: 'Welcome to Mimamori',
      text: 'Your Mimamori account is ready. Register a page and we will tell you when the part you care about changes.',
    };
  }
  return {
    subject: 'Mimamori へようこそ',
    text: 'Mimamori のアカウントができました。ページを登録すると、気になる部分が変わったときにお知らせします。',
  };
}
