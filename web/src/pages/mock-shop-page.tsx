import { Page } from '../shell/page.tsx';

export default function MockShopPage() {
  return <Page title="mockShop" />;
}
