import { Page } from '../../components/page.tsx';

export function ContactPage() {
  return <Page title="Contact Us" />;
}
