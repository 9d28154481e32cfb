export * from './roles';
export * from './envelope';
export * from './identity';
export * from './brand';
export * from './plugin';
export * from './lookups';
