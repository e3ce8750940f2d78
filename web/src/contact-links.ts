/** Where the top navigation's contact links point; the operator sets the real addresses here. */
export const contactLinks = {
  socialMedia: 'https://x.com/mimamori_support',
  mail: 'mailto:support@mimamori.example',
} as const;
