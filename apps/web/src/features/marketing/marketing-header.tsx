import { PublicHeader, type HeaderSection } from '../../components/public-header.tsx';

const sections: HeaderSection[] = [
  { to: '/#features', label: 'Features' },
  { to: '/#pricing', label: 'Pricing' },
  { to: '/blogs', label: 'Blog' },
  { to: '/enterprise', label: 'Enterprise' },
];

/** Header of the public marketing pages, which no signed-in chrome replaces. */
export function MarketingHeader() {
  return <PublicHeader sections={sections} />;
}
