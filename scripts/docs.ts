// `npm run docs`: the docs site with live examples (the sandbox and the example backend behind them); prints its URL.
import { startDocsSite } from './start-docs.js';

const site = await startDocsSite();
console.log(`payroll-link docs: ${site.url} (live examples against the sandbox at ${site.sandboxUrl})`);
const stop = () => void site.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
