import { notFound, route } from '@portal/server';
import { REGISTRATION_QUESTION_ACCESS } from '../../access';
import { RegistrationApi, type RegistrationQuestionOption } from '../../contract';

const NO_ACCOUNT = 'The account no longer exists.';

export const questionRoutes = [
  route(RegistrationApi.question, {
    access: REGISTRATION_QUESTION_ACCESS,
    handler: async (ctx) => {
      if (!ctx.user) throw notFound(NO_ACCOUNT);
      const rows = await ctx.database.sql.query<{ question: RegistrationQuestionOption }>('SELECT question FROM registration_answers WHERE user_id = $1', [
        ctx.user.id,
      ]);
      return { Question: rows[0]?.question ?? null };
    },
  }),
  route(RegistrationApi.saveQuestion, {
    access: REGISTRATION_QUESTION_ACCESS,
    handler: async (ctx) => {
      const user = ctx.user;
      if (!user) throw notFound(NO_ACCOUNT);
      await ctx.database.sql.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO registration_answers (user_id, question) VALUES ($1, $2)
           ON CONFLICT (user_id) DO UPDATE SET question = EXCLUDED.question, updated_at = now()`,
          [user.id, ctx.body.Question],
        );
        await ctx.audit({ action: 'registration.question.save', entity: 'user', entityId: user.id, detail: { question: ctx.body.Question } }, tx);
      });
      return { Question: ctx.body.Question };
    },
  }),
];
