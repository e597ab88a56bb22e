import { Page } from '../../components/page.tsx';

export function HistoryPage() {
  return <Page title="Migration History" />;
}
