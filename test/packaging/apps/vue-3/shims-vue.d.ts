// For the type-check of this folder (tsc reads no .vue file): a .vue import is some component.
declare module '*.vue' {
  import type { DefineComponent } from 'vue';
  const component: DefineComponent;
  export { component as default };
}
