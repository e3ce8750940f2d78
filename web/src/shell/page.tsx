import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type ja from '../i18n/ja.json';

export type PageTitleKey = keyof typeof ja.pages;

/** A screen's frame: its title as the heading and in the browser tab. */
export function Page({ title, children }: { title: PageTitleKey; children?: ReactNode }) {
  const { t } = useTranslation();
  const heading = t(`pages.${title}`);
  useEffect(() => {
    document.title = `${heading} | ${t('app.name')}`;
  }, [heading, t]);
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title" className="page-title">
        {heading}
      </h1>
      {children}
    </section>
  );
}
