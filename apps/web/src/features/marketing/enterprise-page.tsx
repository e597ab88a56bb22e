import { Page } from '../../components/page.tsx';

export function EnterprisePage() {
  return <Page title="Enterprise" />;
}
