import { Page } from '../../components/page.tsx';

export function HelpPage() {
  return <Page title="Help Center" />;
}
