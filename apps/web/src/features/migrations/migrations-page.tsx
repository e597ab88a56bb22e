import { Page } from '../../components/page.tsx';

export function MigrationsPage() {
  return <Page title="Migrations" />;
}
