// A server component rendering the README's client component (connect-payroll.tsx, written here
// by the test from the README's "Next.js" snippet, with the fake Link page's URL in it).
import { ConnectPayroll } from './connect-payroll';

export default function Page() {
  return (
    <main>
      <ConnectPayroll userId="user-next" />
    </main>
  );
}
