import { Page } from '../../components/page.tsx';

export function MagentoToShopifyPage() {
  return <Page title="Magento to Shopify migration" />;
}
