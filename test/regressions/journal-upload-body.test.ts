// An upload is journaled with its files described (field, name, type, size), never stored. The body also held an
// empty string under each file's field: a placeholder the body reader puts there for the validator (multer keeps
// the bytes apart), which the client never sent as a text field.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { testApp } from '../helpers/app.js';
import { PNG } from '../bundle/session.js';

describe('an upload in the journal', () => {
  it('When an image is uploaded beside a text field, then its entry describes the file and keeps the text field, with no placeholder for the file', async () => {
    const t = await testApp();
    await request(t.app)
      .post(`/2024-09/products/${DEMO_PRODUCT_ID}/images`)
      .set(t.auth('owner'))
      .set('X-Request-Id', 'upload')
      .field('note', 'front view')
      .attach('file', PNG, { filename: 'front.png', contentType: 'image/png' })
      .expect(201);
    const journal = await request(t.app).get('/_sandbox/requests').query({ id: 'upload' }).set(t.auth('owner'));
    expect(journal.body.data[0].request.body).toEqual({
      note: 'front view',
      files: [{ field: 'file', filename: 'front.png', mimetype: 'image/png', size: PNG.length }],
    });
  });
});
