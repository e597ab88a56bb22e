import { useParams } from 'react-router';
import { Page } from '../../components/page.tsx';

export function MigrationPage() {
  const { id } = useParams();
  return <Page title="Migration" intro={`Migration ${id ?? ''}`} />;
}
