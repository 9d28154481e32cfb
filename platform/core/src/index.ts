export * from './brand';
export * from './envelope';
export * from './identity';
export * from './lookups';
export * from './plugin';
export * from './roles';
export * from './format';
