// Single-file components, for the type check of the site's theme (VitePress compiles them; tsc only needs their shape).
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent;
  export default component;
}
