import { Page } from '../../components/page.tsx';

export function BlogsPage() {
  return <Page title="Blog" />;
}
