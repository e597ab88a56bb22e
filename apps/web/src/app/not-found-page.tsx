import { Link } from 'react-router';
import { Page } from '../components/page.tsx';

export function NotFoundPage() {
  return (
    <Page title="Page not found" intro="The page you asked for does not exist.">
      <Link to="/" className="text-indigo-700 underline">
        Go to the home page
      </Link>
    </Page>
  );
}
