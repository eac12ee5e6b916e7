// The React 18 run of the kit's React snippet (see package.json): an app's plain Vitest config, as the docs say.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { environment: 'jsdom' } });
