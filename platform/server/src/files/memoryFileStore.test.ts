import { fileStoreContract } from './fileStore.contract';
import { MemoryFileStore } from './memoryFileStore';

fileStoreContract('MemoryFileStore', async () => ({ store: new MemoryFileStore() }));
