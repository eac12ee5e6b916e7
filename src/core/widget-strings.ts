// The widget's words as a type, apart from strings.ts (which reads the DOM), so that the options' table can name it
// where no DOM is (React Native's build of the element's events and options).

/** The widget's own words. Override any of them with the element's `strings` property. */
export interface WidgetStrings {
  /** The button's label (when the element has no content of its own). */
  connect: string;
  /** Shown under the button when a session could not start or ended in an error. */
  error: string;
  /** Accessible name of the modal and of the Link frame. */
  title: string;
  /** Accessible name of the modal's close control. */
  close: string;
  /** Shown until the Link page is ready. */
  loading: string;
}
