// `npm run demo`: the sandbox, the example backend and the demo page in one process; prints the demo URL.
import { PortInUseError, startDemo } from './start-demo.js';

try {
  const demo = await startDemo();
  console.log(`payroll-link demo: ${demo.url}`);
  const stop = () => void demo.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  if (error instanceof PortInUseError || (error instanceof Error && error.name === 'ConfigError')) {
    console.error(`demo: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
