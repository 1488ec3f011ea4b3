/** English texts of the `alerts` namespace (see ../en.ts). */
export const alerts = {
  title: 'Alerts',
};
