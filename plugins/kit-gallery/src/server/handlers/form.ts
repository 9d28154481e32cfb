import { route, withMessage } from '@portal/server';
import { KIT_GALLERY_ACCESS } from '../../access';
import { KitGalleryApi } from '../../contract';

export const formRoutes = [
  route(KitGalleryApi.form, {
    access: KIT_GALLERY_ACCESS,
    handler: ({ body }) => withMessage({ FullName: body.FullName, Fields: Object.keys(body).length, Files: body.Files.length }, 'The form was received.'),
  }),
];
