import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rawManifests } from '@portal/brands';
import { ALL_ROLES, hasAnyRole, Roles } from '@portal/core';
import { authHeaders, makeUser, type Session, signIn, startTestServer } from '@portal/testing/server';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRINT_CARD_ACCESS } from '../access';
import { PrintCardApi } from '../contract';
import { PBM_VENDOR_IDS, printCardConfig, readPrintCardConfig } from './config';

/** The print-card API through the whole kernel guard, on a fresh database, for finance, card and assist members. */
let server: Awaited<ReturnType<typeof startTestServer>>;
let finance: Session;
let guard: Session;
let assist: Session;
let support: Session;
let guardMember: number;
const refusedRole = ALL_ROLES.find((role) => !hasAnyRole([role], PRINT_CARD_ACCESS));

async function member(userName: string, role: string, brand: string): Promise<{ session: Session; memberId: number }> {
  const { memberId } = await makeUser(server, { userName, roles: [role], brand, member: true });
  if (memberId === null) throw new Error('no member');
  return { session: await signIn(server, userName, undefined, '10.0.0.1', brand), memberId };
}

const get = (url: string, headers: Record<string, string>) => server.app.inject({ method: 'GET', url, headers });

beforeAll(async () => {
  server = await startTestServer();
  finance = (await member('pc-finance', Roles.CareGuardFinance, 'finance')).session;
  const g = await member('pc-guard', Roles.CareGuard, 'card');
  guard = g.session;
  guardMember = g.memberId;
  assist = (await member('pc-assist', Roles.CareAssist, 'assist')).session;
  if (!refusedRole) throw new Error('PRINT_CARD_ACCESS must leave some role out');
  await makeUser(server, { userName: 'pc-refused', roles: [Roles.CareSupport], brand: 'staff' });
  support = await signIn(server, 'pc-refused');
  // The card member is a Caremark member (PBM Vendor 3); the others have none and get the configured default.
  await server.database.sql.query('UPDATE members SET pbm_vendor = 3, first_name = $2, last_name = $3 WHERE member_id = $1', [guardMember, 'Ana', 'Prieto']);
});
afterAll(() => server?.close());

describe('GET /api/printcard/getByID', () => {
  it('answers 401 without a sign-in and 403 to a role without a print screen', async () => {
    expect((await get(PrintCardApi.getByID.path, { host: 'card.localhost' })).statusCode).toBe(401);
    expect((await get(PrintCardApi.getByID.path, authHeaders(support, 'staff'))).statusCode).toBe(403);
  });

  it('answers 404 on a brand that does not enable the plugin', async () => {
    expect((await get(PrintCardApi.getByID.path, authHeaders(finance, 'quote'))).statusCode).toBe(404);
  });

  it("gives the member's own card with the vendor's data from the configuration", async () => {
    const res = await get(PrintCardApi.getByID.path, authHeaders(guard));
    expect(res.statusCode, res.body).toBe(200);
    const config = printCardConfig();
    const caremark = config.vendors['3'];
    const row = (await server.database.sql.query<{ member_number: string }>('SELECT member_number FROM members WHERE member_id = $1', [guardMember]))[0];
    expect(res.json().Data).toEqual({
      MemberNumber: row?.member_number,
      FirstName: 'Ana',
      LastName: 'Prieto',
      BIN: caremark?.bin,
      PCN: caremark?.pcn,
      GroupId: caremark?.group,
      PBMVendor: 'Caremark',
      VendorPhone: caremark?.phone,
      // The card brand's support line, from its manifest.
      SupportPhone: '(800) 555-0170',
      PayerNumber: config.payerNumber,
      Copay: '$0',
      ProgramName: 'Amethyst Card',
    });
  });

  it('uses the default vendor for a member without one, on the finance and assist sites', async () => {
    const config = printCardConfig();
    const fallback = config.vendors[String(config.defaultVendor)];
    for (const s of [finance, assist]) {
      const res = await get(PrintCardApi.getByID.path, authHeaders(s));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().Data.BIN).toBe(fallback?.bin);
      expect(res.json().Data.PBMVendor).toBe(fallback?.name);
    }
  });

  it('audits the read with the member', async () => {
    await get(PrintCardApi.getByID.path, authHeaders(guard));
    // Reads are audited off the request's path, in batches: wait for the batch.
    const count = async () =>
      (
        await server.database.sql.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action = 'printcard.read' AND member_id = $1", [
          guardMember,
        ])
      )[0]?.n ?? 0;
    await expect.poll(count, { timeout: 5000 }).toBeGreaterThan(0);
  });
});

describe('GET /api/printcard/GetPrescriptionPlanInfo', () => {
  it('answers the plan of the acting member only', async () => {
    const res = await get(PrintCardApi.prescriptionPlan.path, authHeaders(guard));
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json().Data).sort()).toEqual(['BIN', 'FirstName', 'GroupId', 'LastName', 'MemberNumber', 'PCN']);
    expect(res.json().Data.FirstName).toBe('Ana');
    const other = await get(PrintCardApi.prescriptionPlan.path, authHeaders(finance));
    expect(other.json().Data.FirstName).not.toBe('Ana');
  });

  it('ignores a member id header from a member who may not impersonate', async () => {
    const res = await get(PrintCardApi.prescriptionPlan.path, authHeaders(finance, 'finance', { 'x-member-id': String(guardMember) }));
    expect(res.statusCode).not.toBe(200);
    if (res.statusCode === 200) expect(res.json().Data.FirstName).not.toBe('Ana');
  });
});

describe('GET /api/printcard/download', () => {
  it('is a PDF of the same card, with front and back', async () => {
    const res = await get(PrintCardApi.download.path, authHeaders(guard));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    expect(String(res.headers['x-filename'])).toMatch(/^prescription-card-.+\.pdf$/);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(res.rawPayload)), { mergePages: true });
    const caremark = printCardConfig().vendors['3'];
    for (const expected of [
      'Front',
      'Back',
      'Ana Prieto',
      'Caremark',
      caremark?.bin ?? '-',
      caremark?.pcn ?? '-',
      caremark?.group ?? '-',
      '$0',
      'Amethyst Card',
      'Page 1 of',
    ]) {
      expect(text).toContain(expected);
    }
    // The wallet-size card to cut out and fold (the kernel's card block), then the details in reading size: each value
    // twice, the program in the card's band and in the details.
    expect(text).toContain('Print at 100% (actual size), cut along the dashed line and fold along the dotted line.');
    for (const value of ['Ana Prieto', caremark?.bin ?? '-', caremark?.phone ?? '-']) expect(text.split(value).length - 1).toBe(2);
  });

  it("is written in Spanish for a Spanish reader: title, headings, labels and footer; the card's values as given", async () => {
    const res = await get(PrintCardApi.download.path, authHeaders(guard, 'card', { cookie: 'cq.lang=es' }));
    expect(res.statusCode, res.body).toBe(200);
    // The file's name stays English and stable.
    expect(String(res.headers['x-filename'])).toMatch(/^prescription-card-.+\.pdf$/);
    // Words as read, wherever a narrow label column wraps them.
    const text = (await extractText(await getDocumentProxy(new Uint8Array(res.rawPayload)), { mergePages: true })).text.replace(/\s+/g, ' ');
    const caremark = printCardConfig().vendors['3'];
    for (const expected of [
      'Tarjeta de recetas',
      'Frente',
      'Reverso',
      'Número de miembro',
      'Copago',
      'Línea de ayuda para farmacéuticos',
      'Presente esta tarjeta en la farmacia',
      'Página 1 de',
      // Values are data: names, codes and the configured amount stay as they are.
      'Ana Prieto',
      'Caremark',
      caremark?.bin ?? '-',
      'BIN',
      '$0',
      'Amethyst Card',
    ]) {
      expect(text).toContain(expected);
    }
    for (const english of ['Prescription card', 'Member number', 'Copay', 'Page 1 of']) expect(text).not.toContain(english);
    expect(text).toContain('recórtela por la línea discontinua y dóblela por la línea punteada');
  });

  it('answers 401 anonymous and 403 to staff without a print screen', async () => {
    expect((await get(PrintCardApi.download.path, { host: 'finance.localhost' })).statusCode).toBe(401);
    expect((await get(PrintCardApi.download.path, authHeaders(support, 'staff'))).statusCode).toBe(403);
  });
});

describe('PBM vendor configuration', () => {
  it('refuses a file whose vendor data is malformed, naming the file', () => {
    const file = join(tmpdir(), `print-card-bad-${process.pid}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        payerNumber: 'y',
        copay: '$0',
        defaultVendor: 9,
        vendors: { '1': { name: 'H', bin: '12', pcn: 'P', group: 'G', phone: 'p' } },
      }),
    );
    expect(() => readPrintCardConfig(file)).toThrow(file);
    expect(() => readPrintCardConfig(join(tmpdir(), 'no-such-print-card.json'))).toThrow(/cannot read/);
  });

  it('refuses a file that leaves out a PBM Vendor id a member record can hold', () => {
    const file = join(tmpdir(), `print-card-partial-${process.pid}.json`);
    const vendor = { name: 'H', bin: '123456', pcn: 'P', group: 'G', phone: '(800) 555-0191' };
    writeFileSync(file, JSON.stringify({ payerNumber: 'y', copay: '$0', defaultVendor: 1, vendors: { '1': vendor, '2': vendor } }));
    expect(() => readPrintCardConfig(file)).toThrow(/every PBM Vendor id/);
    // The shipped file names every one.
    for (const id of PBM_VENDOR_IDS) expect(printCardConfig().vendors[String(id)], String(id)).toBeDefined();
  });

  it("ships vendor phones that are none of the brands' own numbers", () => {
    const brandNumbers = Object.values(rawManifests).flatMap((b) => [b.contacts.phone, b.contacts.fax]);
    for (const vendor of Object.values(printCardConfig().vendors)) expect(brandNumbers, vendor.name).not.toContain(vendor.phone);
  });
});

describe("messages in the user's language", () => {
  it('refuses a login without a member record, in Spanish when the request is in Spanish', async () => {
    await makeUser(server, { userName: 'pc-nomember', roles: [Roles.CareGuard], brand: 'card', member: false });
    const nobody = await signIn(server, 'pc-nomember', undefined, '10.0.0.1', 'card');
    const res = await get(PrintCardApi.getByID.path, authHeaders(nobody, 'card', { cookie: 'cq.lang=es' }));
    expect(res.statusCode).toBe(400);
    // Advice a member can follow (only staff act for a member, and staff have no print screen): the brand's phone.
    expect(res.json().MsgText).toBe('Su cuenta todavía no tiene un registro de miembro, por lo que no tiene tarjeta. Llámenos al (800) 555-0170.');
    expect((await get(PrintCardApi.getByID.path, authHeaders(nobody, 'card'))).json().MsgText).toBe(
      'Your account has no member record yet, so it has no card. Please call us at (800) 555-0170.',
    );
  });
});

describe('a membership that has ended, and a PBM vendor the configuration does not know', () => {
  it('refuses the card, the plan and the PDF with 409 once the termination date has come, in English and Spanish', async () => {
    const ended = await member('pc-ended', Roles.CareAssist, 'assist');
    await server.database.sql.query("UPDATE members SET termination_date = now() - interval '3 days' WHERE member_id = $1", [ended.memberId]);
    for (const path of [PrintCardApi.getByID.path, PrintCardApi.prescriptionPlan.path, PrintCardApi.download.path]) {
      const res = await get(path, authHeaders(ended.session));
      expect(res.statusCode, path).toBe(409);
      expect(res.headers['content-type'], path).toContain('application/json');
      expect(res.json().MsgText).toBe(
        'Your membership has ended, so your prescription card can no longer be printed or downloaded. Questions? Call us at (800) 555-0150.',
      );
    }
    const es = await get(PrintCardApi.getByID.path, authHeaders(ended.session, 'assist', { cookie: 'cq.lang=es' }));
    expect(es.statusCode).toBe(409);
    expect(es.json().MsgText).toBe(
      'Su membresía terminó, por lo que su tarjeta de recetas ya no se puede imprimir ni descargar. ¿Tiene preguntas? Llámenos al (800) 555-0150.',
    );
  });

  it('still gives the card while a termination is only scheduled', async () => {
    const leaving = await member('pc-leaving', Roles.CareGuardFinance, 'finance');
    await server.database.sql.query("UPDATE members SET termination_date = now() + interval '10 days' WHERE member_id = $1", [leaving.memberId]);
    expect((await get(PrintCardApi.getByID.path, authHeaders(leaving.session))).statusCode).toBe(200);
  });

  it("refuses a member whose PBM vendor is not configured instead of printing the default vendor's BIN, PCN and group", async () => {
    const odd = await member('pc-vendor4', Roles.CareGuard, 'card');
    await server.database.sql.query('UPDATE members SET pbm_vendor = 4 WHERE member_id = $1', [odd.memberId]);
    for (const path of [PrintCardApi.getByID.path, PrintCardApi.download.path]) {
      const res = await get(path, authHeaders(odd.session));
      expect(res.statusCode, path).toBe(409);
      expect(res.json().MsgText).toBe(
        'Your prescription card cannot be shown because your pharmacy benefit manager is not set up with us. Please call us at (800) 555-0170.',
      );
    }
  });
});

describe("the phone the card and its refusals give: the member's brand's", () => {
  it("is the member's brand's, not the site's, when the member signs in on another brand's site", async () => {
    // A CareGuard member of the assist brand ((800) 555-0150, CareAssist) signed in on the card site ((800) 555-0170).
    const elsewhere = await member('pc-elsewhere', Roles.CareGuard, 'card');
    await server.database.sql.query("UPDATE members SET brand = 'assist' WHERE member_id = $1", [elsewhere.memberId]);
    const card = await get(PrintCardApi.getByID.path, authHeaders(elsewhere.session));
    expect(card.statusCode, card.body).toBe(200);
    expect(card.json().Data).toMatchObject({ SupportPhone: '(800) 555-0150', ProgramName: 'CareAssist' });
    await server.database.sql.query("UPDATE members SET termination_date = now() - interval '1 day' WHERE member_id = $1", [elsewhere.memberId]);
    const ended = await get(PrintCardApi.getByID.path, authHeaders(elsewhere.session));
    expect(ended.statusCode).toBe(409);
    expect(ended.json().MsgText).toBe(
      'Your membership has ended, so your prescription card can no longer be printed or downloaded. Questions? Call us at (800) 555-0150.',
    );
  });
});
