/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The sandbox's hosted Link page, set by `npm run demo`. */
  readonly DEMO_LINK_URL?: string;
}
