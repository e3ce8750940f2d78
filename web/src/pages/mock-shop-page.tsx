import { useTranslation } from 'react-i18next';
import { ProductCard } from '../mock-shop/product-card.tsx';
import { shopProducts } from '../mock-shop/shop-prices.ts';
import { useShopTurn } from '../mock-shop/use-shop-turn.ts';
import { Page } from '../shell/page.tsx';
import '../mock-shop/mock-shop.css';

/** A demo shop whose prices change every half minute: the first site a new user watches. */
export default function MockShopPage() {
  const { t, i18n } = useTranslation();
  const { turn, startedAt } = useShopTurn();
  const asOf = startedAt.toLocaleTimeString(i18n.resolvedLanguage, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  return (
    <Page title="mockShop">
      <p className="mock-shop-intro">{t('mockShop.intro')}</p>
      <p className="mock-shop-as-of">{t('mockShop.asOf', { time: asOf })}</p>
      <ul className="mock-shop-products">
        {shopProducts.map((product) => (
          <ProductCard key={product.id} product={product} turn={turn} />
        ))}
      </ul>
    </Page>
  );
}
