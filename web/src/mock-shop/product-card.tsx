import { useTranslation } from 'react-i18next';
import { formatYen, priceAt, type ShopProduct, stockAt } from './shop-prices.ts';

/**
 * One product. The price is its own element with a stable id, so a person designating an area
 * on the screenshot can click exactly the price.
 */
export function ProductCard({ product, turn }: { product: ShopProduct; turn: number }) {
  const { t } = useTranslation();
  const stock = stockAt(product, turn);
  const nameId = `product-${product.id}`;
  return (
    <li className="mock-shop-product" aria-labelledby={nameId}>
      <div className={`mock-shop-picture mock-shop-picture-${product.id}`} aria-hidden="true" />
      <h2 id={nameId} className="mock-shop-name">
        {t(`mockShop.products.${product.id}.name`)}
      </h2>
      <p className="mock-shop-description">{t(`mockShop.products.${product.id}.description`)}</p>
      <p className="mock-shop-price-row">
        <span className="mock-shop-price-label">{t('mockShop.price')}</span>
        <span id={`price-${product.id}`} className="price mock-shop-price" data-product={product.id}>
          {formatYen(priceAt(product, turn))}
        </span>
      </p>
      <p className={`mock-shop-stock mock-shop-stock-${stock}`} data-stock={product.id}>
        {t(`mockShop.stock.${stock}`)}
      </p>
    </li>
  );
}
