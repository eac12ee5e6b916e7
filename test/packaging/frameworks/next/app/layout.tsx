import type { ReactNode } from 'react';
import { ObserveSession } from './observe-session';

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <ObserveSession />
        {children}
      </body>
    </html>
  );
}
