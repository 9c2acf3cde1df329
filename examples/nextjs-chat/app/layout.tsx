import type { ReactNode } from 'react';
import 'streamdown/styles.css';
import './chat.css';

export const metadata = { title: 'agent-toolbelt chat' };
export const viewport = { width: 'device-width', initialScale: 1, colorScheme: 'light dark' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
