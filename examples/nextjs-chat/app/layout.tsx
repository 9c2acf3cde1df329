import type { ReactNode } from 'react';
import './chat.css';

export const metadata = { title: 'agent-toolbelt chat' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
