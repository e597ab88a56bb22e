import { Page } from '../../components/page.tsx';

export function MyAccountPage() {
  return <Page title="My Account" />;
}
