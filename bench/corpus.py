#!/usr/bin/env python3
"""A deterministic synthetic corpus in portal's content format: N records spread over the 19
collections, with realistic markdown bodies, plus N/10 encyclopedia entries.

    python3 bench/corpus.py --records 10000 --out target/bench/corpus-10k
    python3 bench/corpus.py --records 10000 --vocabulary realistic --out target/bench/corpus-realistic-10k

Two vocabularies:
- `synthetic` (the default, the worst case for search): about a hundred words drawn uniformly, so a
  one- or two-word query matches most records.
- `realistic`: about 12,000 distinct words drawn with a Zipf law per record language (English,
  Swahili, French, Somali, Arabic), with people's names, real and made-up places and made-up
  local words, so most words are rare and a query matches few records, as in real content.
"""

import argparse
import bisect
import itertools
import random
import shutil
from pathlib import Path

COLLECTIONS = [
    "services", "resources", "events", "photos", "jobs", "news", "courses", "community-voices", "profiles",
    "talents", "marketplace", "stores", "rights", "artists", "artworks", "poets", "dancers", "docs", "pages",
]
WORDS = (
    "water borehole clinic school registration shelter market tailoring language lessons vaccination "
    "maize harvest solar lamp mobile money savings group youth football mural poetry dance drumming "
    "legal aid asylum refugee host community zone health nutrition maternity counselling protection "
    "training carpentry welding bakery transport bicycle repair library reading mentor volunteer "
    "rainfall drought flood season firewood cooking stove hygiene sanitation latrine soap bucket "
    "kiswahili arabic somali french english interpreter bridge road clinic pharmacy malaria mosquito net "
    "certificate document birth identity permit work farm seeds goats chickens cooperative loan"
).split()
CATEGORIES = ["health", "education", "livelihoods", "protection", "culture", "water", "shelter", "law"]

# The realistic vocabulary: function words first (the most frequent), then content words, per language.
LANGUAGES = {
    "en": (0.45, """the of and to in a is for on with at by from as are be this that it or an was will
        can has have not all their they you your we our more about new one also but when after""",
        " ".join(WORDS) + """ people family children women men elders students teachers doctor nurse hospital
        medicine treatment appointment registration office camp settlement village town city district
        region border river lake well pump tank pipe tap queue distribution food ration flour beans oil
        sugar salt rice sorghum cassava milk meat fish vegetables fruit garden field harvest rain sun
        wind storm heat cold night morning evening week month year today tomorrow yesterday meeting
        workshop class course exam result grade uniform book pen paper computer phone internet radio
        news story song music festival ceremony wedding funeral church mosque prayer faith peace
        conflict safety police court judge lawyer case appeal decision interview resettlement return
        integration citizenship passport visa card number address house roof wall door window tent
        blanket mattress clothes shoes kitchen fire water electricity light battery charger generator
        business shop trader customer price market stall credit debt income salary job employer skill
        apprentice craft tailor barber mechanic driver builder painter artist photographer dancer poet
        writer singer player coach team match goal league tournament trophy volunteer leader chairman
        committee association union network partner donor agency programme project report survey
        data map list form letter message announcement notice rule policy right duty freedom dignity
        disability wheelchair glasses hearing sign language translation interpretation literacy
        numeracy mathematics science history geography health care mental stress trauma support
        friendship love hope future dream memory home journey arrival departure transport lorry bus
        motorbike boda bicycle road bridge airport flight ticket""",
    ),
    "sw": (0.2, """na ya wa la kwa ni za katika kwamba hii huo hiyo pia au lakini kama sana kila
        wote yetu yenu wao""",
        """maji kisima kliniki shule usajili makazi soko ushonaji lugha masomo chanjo mahindi mavuno
        taa simu pesa akiba kikundi vijana mpira sanaa mashairi ngoma msaada kisheria wakimbizi jamii
        afya lishe uzazi ushauri ulinzi mafunzo useremala kuchomelea mikate usafiri baiskeli ukarabati
        maktaba kusoma mshauri mjitolea mvua ukame mafuriko msimu kuni kupika jiko usafi choo sabuni
        ndoo mkalimani daraja barabara duka dawa malaria mbu chandarua cheti hati kuzaliwa kitambulisho
        kibali kazi shamba mbegu mbuzi kuku ushirika mkopo mama baba mtoto watoto bibi babu mwalimu
        daktari muuguzi hospitali chakula unga maharagwe mafuta sukari chumvi mchele mtama muhogo
        maziwa nyama samaki mboga matunda bustani jua upepo usiku asubuhi jioni wiki mwezi mwaka leo
        kesho jana mkutano darasa mtihani kitabu kalamu karatasi redio habari hadithi wimbo muziki
        tamasha harusi msiba kanisa msikiti sala amani mgogoro usalama polisi mahakama hakimu wakili
        nyumba paa ukuta mlango dirisha hema blanketi nguo viatu jikoni moto umeme betri biashara
        mteja bei deni mshahara ujuzi fundi kinyozi dereva mjenzi mchoraji mpiga picha mchezaji
        timu ligi kiongozi kamati chama mradi ripoti ramani barua tangazo haki uhuru heshima ulemavu
        matumaini ndoto nyumbani safari basi pikipiki ndege tiketi""",
    ),
    "fr": (0.15, """le la les de des du et un une est pour dans sur avec par au aux en qui que ne pas
        plus son sa ses leur nous vous ils elle""",
        """eau puits clinique école inscription abri marché couture langue cours vaccination maïs
        récolte lampe solaire argent épargne groupe jeunesse football fresque poésie danse tambour
        aide juridique asile réfugié communauté accueil santé nutrition maternité conseil protection
        formation menuiserie soudure boulangerie transport vélo réparation bibliothèque lecture
        mentor bénévole pluie sécheresse inondation saison bois cuisine foyer hygiène assainissement
        latrine savon seau interprète pont route pharmacie paludisme moustiquaire certificat document
        naissance identité permis travail ferme semences chèvres poulets coopérative prêt famille
        enfants femmes hommes anciens élèves enseignants médecin infirmière hôpital médicament
        rendez-vous bureau village ville district frontière rivière pompe réservoir distribution
        nourriture farine haricots huile sucre sel riz manioc lait viande poisson légumes fruits
        jardin champ vent orage nuit matin soir semaine mois année réunion atelier classe examen
        résultat uniforme livre stylo papier ordinateur téléphone radio nouvelles histoire chanson
        musique fête cérémonie mariage église mosquée prière paix conflit sécurité police tribunal
        juge avocat dossier appel décision entretien réinstallation retour intégration citoyenneté
        passeport maison toit porte fenêtre tente couverture vêtements chaussures électricité
        batterie commerce boutique client prix crédit dette salaire emploi compétence apprenti
        artisan coiffeur mécanicien chauffeur peintre artiste photographe danseur poète écrivain
        chanteur joueur équipe match tournoi bénévolat comité association partenaire projet rapport
        enquête carte lettre message annonce règle droit devoir liberté dignité handicap espoir avenir
        rêve mémoire voyage arrivée départ camion moto avion billet""",
    ),
    "so": (0.12, """iyo oo ka ku ayaa waa ee la u in ah kale sida laakiin haddii wax wuxuu waxay""",
        """biyo ceel rugta caafimaadka dugsi diiwaangelin hoy suuq tolid luuqad casharro tallaal galley
        goosasho laambad qoraxda lacag kayd koox dhalinyaro kubadda suugaan qoob ciyaar durbaan
        gargaar sharci magangalyo qaxooti bulsho nafaqo umul latalin ilaalin tababar nijaar alxan
        foorno gaadiid baaskiil dayactir maktabad akhris tabaruce roob abaar daad xilli qoryo karis
        nadaafad musqul saabuun baaldi turjumaan buundo waddo farmashiye duumo kaneeco shahaado
        dukumeenti dhalasho aqoonsi ogolaansho shaqo beer abuur riyo digaag iskaashi amaah qoys
        carruur haween rag waayeel arday macallin dhakhtar kalkaaliye isbitaal daawo xafiis tuulo
        magaalo degmo xuduud webi harada bamka haanta cunto bur digir saliid sonkor cusbo bariis
        caano hilib kalluun khudaar miro beerta dabayl habeen subax fiid toddobaad bil sannad
        shir fasal imtixaan buug qalin warqad kombiyuutar taleefan raadiyo war sheeko hees muusiko
        dabaaldeg aroos masjid salaad nabad colaad amni booliis maxkamad garsoore qareen go'aan
        guri saqaf albaab daaqad teendho buste dhar kabo koronto ganacsi dukaan macmiil qiime
        deyn mushahar xirfad darawal rinjiile farshaxan gabayaa heesaa ciyaaryahan kooxda guddi
        mashruuc warbixin khariidad farriin xuquuq xorriyad sharaf naafo rajo mustaqbal safar""",
    ),
    "ar": (0.08, """في من على إلى عن مع هذا هذه التي الذي و أو كل بعد قبل""",
        """ماء بئر عيادة مدرسة تسجيل مأوى سوق خياطة لغة دروس تطعيم ذرة حصاد مصباح شمسي مال ادخار
        مجموعة شباب كرة فن شعر رقص طبول مساعدة قانونية لجوء لاجئ مجتمع صحة تغذية أمومة إرشاد
        حماية تدريب نجارة لحام مخبز نقل دراجة إصلاح مكتبة قراءة متطوع مطر جفاف فيضان موسم حطب
        طبخ موقد نظافة صرف مرحاض صابون دلو مترجم جسر طريق صيدلية ملاريا بعوض ناموسية شهادة وثيقة
        ولادة هوية تصريح عمل مزرعة بذور ماعز دجاج تعاونية قرض عائلة أطفال نساء رجال معلم طبيب
        ممرضة مستشفى دواء مكتب قرية مدينة حدود نهر مضخة خزان طعام دقيق فول زيت سكر ملح أرز حليب
        لحم سمك خضار فاكهة حديقة حقل ريح ليل صباح مساء أسبوع شهر سنة اجتماع صف امتحان كتاب قلم
        ورقة حاسوب هاتف راديو أخبار قصة أغنية موسيقى مهرجان زفاف كنيسة مسجد صلاة سلام نزاع أمن
        شرطة محكمة قاضي محامي قرار منزل سقف باب نافذة خيمة بطانية ملابس أحذية كهرباء تجارة متجر
        زبون سعر دين راتب مهارة حرفي حلاق سائق رسام فنان مصور شاعر كاتب مغني لاعب فريق لجنة
        مشروع تقرير خريطة رسالة إعلان حق حرية كرامة إعاقة أمل مستقبل حلم ذاكرة رحلة""",
    ),
}
GIVEN = """Amina Hassan Fatuma Abdi Grace John Mary Joseph Halima Omar Achieng Otieno Wanjiru Kamau
    Nyambura Mwangi Aisha Ibrahim Zainab Yusuf Khadija Ali Mohamed Asha Juma Rehema Baraka Neema
    Imani Furaha Esperance Jean Claude Marie Pierre Aline Eric Divine Solange Innocent Chantal
    Emmanuel Deng Akol Nyandeng Garang Achol Majok Nyibol Mabior Ayen Kiir Hodan Faisal Sahra Abdirahman
    Ayaan Hibo Farhan Ikran Liban Nasra Warsame Ahmed Mariam Hamza Layla Samir Rania Tariq Nour
    Youssef Huda Karim Salma Anan Kofi Ama Kwame Akosua Chidi Ngozi Emeka Adaeze Tunde Bisi Sipho
    Thandiwe Themba Lerato Tendai Rudo Farai Chipo Blessing Gift Patience Mercy Faith Hope Peace""".split()
FAMILY = """Mohamud Abdullahi Hussein Osman Nur Warsame Farah Odhiambo Ochieng Njoroge Kariuki Mutua
    Kiprop Chebet Wekesa Nakato Mukasa Ssempala Nshimiyimana Habimana Uwimana Niyonzima Ndayishimiye
    Bizimana Mugisha Kabila Ilunga Mbuyi Tshisekedi Deng Garang Malual Lual Makuei Bol Adam Khalil
    Haddad Mansour Saleh Nasser Rahman Qasim Bakri Tesfaye Bekele Haile Girma Alemu Desta Mengistu
    Asante Mensah Owusu Boateng Okafor Adeyemi Balogun Nkosi Dlamini Moyo Banda Phiri Mwale Zulu""".split()
PLACES = """Kakuma Kalobeyei Dadaab Ifo Dagahaley Hagadera Nairobi Eastleigh Kampala Nakivale Kyangwali
    Bidibidi Rwamwanja Juba Malakal Bentiu Wau Mogadishu Baidoa Kismayo Hargeisa Garowe Goma Bukavu
    Bunia Kigali Mahama Kiziba Bujumbura Kigoma Nyarugusu Lodwar Turkana Garissa Mombasa Kisumu Eldoret
    Gambella Dollo Ado Addis Khartoum Kassala Gedaref Adjumani Arua Yumbe Lamwo Kiryandongo Moroto""".split()


def syllable_words(rng, count, syllables, lengths=(2, 4)):
    """`count` distinct made-up words of `lengths` syllables, in a deterministic order."""
    seen, words = set(), []
    while len(words) < count:
        word = "".join(rng.choice(syllables) for _ in range(rng.randint(*lengths)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


class Vocabulary:
    """The realistic vocabulary: per language, function words then content words, then names, places
    and made-up local words shared by every language, drawn with a Zipf law (exponent 1.05)."""

    def __init__(self, seed=3):
        rng = random.Random(seed)
        onsets = ["", "b", "d", "g", "k", "l", "m", "n", "ny", "ng", "s", "sh", "t", "w", "y", "ch", "j", "dh", "kh"]
        syllables = [o + v for o in onsets for v in "aeiou"]
        local = syllable_words(rng, 9000, syllables)
        villages = [w.capitalize() for w in syllable_words(rng, 1500, syllables, (3, 4))]
        names = [f"{g} {f}" for g, f in itertools.product(GIVEN, FAMILY)]
        rng.shuffle(names)
        shared = local + villages + PLACES + [n.split()[0] for n in names[:200]] + [n.split()[1] for n in names[:200]]
        rng.shuffle(shared)
        self.names = names
        self.places = PLACES + villages
        self.languages, self.language_weights = [], []
        self.draws = {}
        for language, (weight, function, content) in LANGUAGES.items():
            content = list(dict.fromkeys(content.split()))
            rng.shuffle(content)
            ranked = list(dict.fromkeys(function.split() + content + shared))
            cumulative = list(itertools.accumulate(1 / (rank + 1) ** 1.05 for rank in range(len(ranked))))
            self.draws[language] = (ranked, cumulative, len(function.split()))
            self.languages.append(language)
            self.language_weights.append(weight)

    def distinct(self):
        return len({w.lower() for ranked, _, _ in self.draws.values() for w in ranked})

    def language(self, rng):
        return rng.choices(self.languages, self.language_weights)[0]

    def word(self, rng, language, content_only=False):
        ranked, cumulative, functions = self.draws[language]
        low = cumulative[functions - 1] if content_only else 0.0
        return ranked[bisect.bisect_left(cumulative, rng.uniform(low, cumulative[-1]))]

    def words(self, rng, language, n):
        words = [self.word(rng, language) for _ in range(n)]
        # A sentence names someone or somewhere now and then.
        if rng.random() < 0.3:
            words.insert(rng.randrange(len(words) + 1), rng.choice(self.names))
        if rng.random() < 0.2:
            words.insert(rng.randrange(len(words) + 1), rng.choice(self.places))
        return words

    def query(self, rng):
        """One or two words a person might search for: content words of one language."""
        language = self.language(rng)
        return [self.word(rng, language, content_only=True) for _ in range(rng.choice([1, 2]))]


_VOCABULARY = None


def vocabulary():
    global _VOCABULARY
    if _VOCABULARY is None:
        _VOCABULARY = Vocabulary()
    return _VOCABULARY


class Synthetic:
    """The original worst case: a hundred words, drawn uniformly."""

    def language(self, rng):
        return "en"

    def words(self, rng, language, n):
        return [rng.choice(WORDS) for _ in range(n)]

    def tag(self, rng, language):
        return rng.choice(WORDS)


class Realistic:
    def __init__(self):
        self.vocabulary = vocabulary()

    def language(self, rng):
        return self.vocabulary.language(rng)

    def words(self, rng, language, n):
        return self.vocabulary.words(rng, language, n)

    def tag(self, rng, language):
        return self.vocabulary.word(rng, language, content_only=True)


VOCABULARIES = {"synthetic": Synthetic, "realistic": Realistic}


def sentence(rng, n=None, words=None, language="en"):
    words = words or Synthetic()
    text = " ".join(words.words(rng, language, n or rng.randint(8, 18)))
    return text[:1].upper() + text[1:] + "."


def body(rng, words=None, language="en"):
    s = lambda n=None: sentence(rng, n, words, language)  # noqa: E731
    parts = [f"## {s(4)[:-1]}", "", " ".join(s() for _ in range(rng.randint(3, 6))), ""]
    parts += [f"- {s(5)}" for _ in range(rng.randint(2, 5))]
    parts += ["", " ".join(s() for _ in range(rng.randint(2, 5))), ""]
    return "\n".join(parts)


def front_matter(fields):
    lines = ["---"]
    for key, value in fields.items():
        if isinstance(value, list):
            lines.append(f"{key}: [{', '.join(value)}]")
        else:
            lines.append(f'{key}: "{value}"' if isinstance(value, str) else f"{key}: {value}")
    lines.append("---")
    return "\n".join(lines)


def generate(records, out, seed=7, vocabulary="synthetic"):
    """Writes the corpus to `out` (emptied first). The synthetic corpus is the same as before the
    realistic one existed, byte for byte."""
    words = VOCABULARIES[vocabulary]()
    rng = random.Random(seed)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / "site.yaml").write_text(
        "title: Benchmark Portal\ndescription: A synthetic corpus.\nbase_url: https://bench.example.org\n"
        "language: en\nlicense: CC BY-SA 4.0\nrss:\n  items: 20\n"
    )
    for i in range(records):
        collection = COLLECTIONS[i % len(COLLECTIONS)]
        folder = out / collection
        folder.mkdir(exist_ok=True)
        language = words.language(rng)
        title = sentence(rng, rng.randint(3, 7), words, language)[:-1]
        fields = {
            "title": title,
            "date": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            "summary": sentence(rng, 12, words, language),
            "tags": [words.tag(rng, language) for _ in range(3)],
            "category": rng.choice(CATEGORIES),
        }
        (folder / f"record-{i:06d}.md").write_text(front_matter(fields) + "\n" + body(rng, words, language))
    entries = out / "encyclopedia"
    entries.mkdir()
    for i in range(records // 10):
        language = words.language(rng)
        fields = {
            "title": sentence(rng, rng.randint(2, 4), words, language)[:-1],
            "summary": sentence(rng, 12, words, language),
            "category": rng.choice(CATEGORIES),
            "tags": [words.tag(rng, language) for _ in range(2)],
            "updated": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        }
        text = front_matter(fields).removesuffix("---")
        text += f"sources:\n  - title: Source {i}\n    url: https://example.org/source/{i}\n---\n"
        (entries / f"entry-{i:05d}.md").write_text(text + body(rng, words, language))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--vocabulary", choices=sorted(VOCABULARIES), default="synthetic")
    args = parser.parse_args()
    generate(args.records, args.out, args.seed, args.vocabulary)


if __name__ == "__main__":
    main()
