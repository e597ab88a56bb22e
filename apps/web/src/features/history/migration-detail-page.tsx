import { useParams } from 'react-router';
import { Page } from '../../components/page.tsx';

export function MigrationDetailPage() {
  const { id } = useParams();
  return <Page title="Migration details" intro={`Migration ${id ?? ''}`} />;
}
