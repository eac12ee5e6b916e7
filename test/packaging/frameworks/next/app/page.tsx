// A server component rendering the docs' client component (connect-payroll.tsx, written here
// by the test from the docs' "Next.js" snippet, with the fake Link page's URL in it).
import { ConnectPayroll } from './connect-payroll';

export default function Page() {
  return (
    <main>
      <ConnectPayroll userId="user-next" />
    </main>
  );
}
