export { ability, connectAbility, rulesFromPermissions, updateAbility } from './ability';
export type { AppAbility, PermissionCheck, PermissionRule, Subject } from './ability';
export { AbilityProvider, Can, useAbility, usePermission } from './can';
