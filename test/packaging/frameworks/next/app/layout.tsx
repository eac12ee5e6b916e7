// docs/nextjs.md's root layout import (frameworks.test.ts checks that it is the docs' line): the inline room from the first paint.
import 'payroll-link/styles.css';
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
