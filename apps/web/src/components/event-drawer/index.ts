export { EventDrawer, FieldsSection } from './event-drawer';
export type { EventHeading, EventSection, Field, FieldSection, Pivot } from './event-drawer';
