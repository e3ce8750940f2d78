import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useChatLinks } from '../hooks/use-chat-links.ts';
import { routePaths } from '../route-paths.ts';
import './chat-links.css';

/**
 * The dashboard's warning while a chat link is broken (docs/product.md#chat-links): nothing goes
 * to it until it is linked again, so it stays until then, beside the one mail its owner got.
 */
export function BrokenChatLinksWarning() {
  const { t } = useTranslation();
  const links = useChatLinks();
  const broken = (links.data?.links ?? []).filter((link) => link.status === 'broken');
  if (broken.length === 0) return null;
  return (
    <div className="chat-links-warning" role="alert" data-testid="broken-chat-links">
      <p>{t('chatLinks.brokenWarning', { count: broken.length })}</p>
      <Link className="button small" to={`${routePaths.account}#chat-links-title`}>
        {t('chatLinks.brokenWarningAction')}
      </Link>
    </div>
  );
}
