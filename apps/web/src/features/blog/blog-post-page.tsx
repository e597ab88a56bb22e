import { useParams } from 'react-router';
import { Page } from '../../components/page.tsx';

export function BlogPostPage() {
  const { id } = useParams();
  return <Page title="Blog post" intro={`Post ${id ?? ''}`} />;
}
