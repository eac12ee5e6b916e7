// The default theme, with the live example component the pages' `<!-- live-example -->` comments become.
import DefaultTheme from 'vitepress/theme';
import type { Theme } from 'vitepress';
import LiveExample from './LiveExample.vue';

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component('LiveExample', LiveExample);
  },
} satisfies Theme;
