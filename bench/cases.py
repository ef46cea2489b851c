"""Hand-written cases, one line each: what the checker is known to get right, and what it is
known to get wrong (the README's "What a green highlight can still hide", measured, not remembered).

    .venv/bin/python bench/cases.py            # about 20 s with the model loaded

Each case is an answer, its facts and what a person says of the answer's last claim. A line reads
"ok" where the checker agrees with the person at the threshold (0.6) and "MISS" where it does not;
a claim the checker does not check at all counts as passing. The known cases are also printed by
`bench/evaluate.py`. A limit that starts to read "ok" has been fixed: give it a test, and move it
out of LIMITS and the README's list. HELD is a probe kept as it was written and first run, each
sentence with the writer's reason, so that what a later engine mends of it reads against that run.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from groundview.grounding import Engine, EngineConfig  # noqa: E402

THRESHOLD = 0.6

Case = tuple[str, str, list[str], bool]

# The articles of the 0.7.40 probes, each summarised sentence by sentence below.
_COUNCIL = (
    "The Harlow Vale district council voted 7-4 on Tuesday to approve a £2.3 million scheme of "
    "protected cycle lanes along Mill Road and Station Street. The plan, first proposed in 2022 "
    "by the council's transport committee, will remove 64 on-street parking spaces, of which 40 "
    "will be replaced in a new car park behind the library. Two cyclists were seriously injured "
    "on Mill Road last year. Half of the money comes from a national active travel grant; the "
    "rest will be borrowed."
)
_BEES = (
    "Worker bees from exposed colonies also collected less pollen, although the difference was "
    "not statistically significant. Flupyradifurone was introduced in 2015 as a safer "
    "alternative to neonicotinoids, three of which were banned for outdoor use in the EU in "
    "2018. Lead author Dr Hannah Okafor said the findings did not show that the pesticide was "
    "more harmful than the banned neonicotinoids, but that its safety had been overestimated by "
    "regulators, who tested it only on honeybees."
)
_NORDLYS = (
    "Nordlys Energy, the Norwegian wind turbine maker, reported a net loss of 1.4 billion kroner "
    "for the third quarter on Thursday, compared with a profit of 220 million kroner a year "
    "earlier. Revenue rose 8% to 9.1 billion kroner, helped by deliveries to offshore projects in "
    "the North Sea. Chief executive Ingrid Solberg said the repair programme would be finished by "
    "the end of next year and that the company still expected to return to profit in 2026. "
    "Shares in Nordlys fell 11% in Oslo trading, their lowest level since 2020. The company also "
    "said it would cut 600 jobs, mostly at its factory in Esbjerg, Denmark, and would stop making "
    "onshore turbines for the Asian market."
)
_FRAUD = (
    "A former accountant at the Ribe Harbour Trust was sentenced on Friday to three years in "
    "prison for stealing £480,000 from the charity over six years. Helen Marsh, 52, pleaded "
    "guilty in September to fraud by abuse of position. Winchester Crown Court heard that she had "
    "transferred money into her own accounts through fake invoices. The trust has recovered "
    "about £90,000."
)
_MARREN = (
    "The city of Marren will ban petrol and diesel cars from its historic centre from January "
    "2027. Electric cars, buses, taxis and delivery vans will still be allowed. Business groups "
    "have criticised the plan, saying it was rushed through without proper consultation, while "
    "environmental campaigners said it did not go far enough because it leaves out the city's "
    "ring road."
)


# The articles of the 0.7.41 probes.
_WAITING = (
    "The number of patients waiting more than 18 weeks for planned hospital treatment in "
    "Northern Ireland fell for the third month in a row in October, to 212,000, according to "
    "figures published on Thursday. Almost half of them had been waiting for more than a year. "
    "The Department of Health said the fall was mainly due to extra clinics run at weekends in "
    "Belfast and Derry. The Royal College of Surgeons warned that waits for orthopaedic "
    "operations, such as hip replacements, were still the longest in the UK. Health Minister "
    "Mike Nesbitt said he would publish a new plan to cut waiting lists before the summer."
)

_MUSEUM = (
    "The National Gallery of Wales has bought a landscape by the Welsh painter Thomas Jones for "
    "£1.1 million, with help from the Art Fund charity, which gave £300,000. The painting, "
    "'View of Pencerrig', was painted in 1776 and had been in a private collection in Scotland "
    "for more than a century. It will go on display in Cardiff in May, before touring to "
    "Aberystwyth and Swansea next year. The gallery's director, Ffion Price, said it was 'the "
    "most important Welsh landscape to come on the market in a generation'. Jones, who trained "
    "under Richard Wilson, is best known for the small oil sketches he made in Naples in the "
    "1780s."
)

_FIRE = (
    "A wildfire on the Greek island of Chios has forced the evacuation of six villages and "
    "burned about 4,000 hectares of pine forest and farmland since it broke out on Sunday. More "
    "than 400 firefighters, backed by 12 aircraft, were battling the blaze on Tuesday, helped "
    "by a drop in wind speeds. No deaths have been reported, but two firefighters were treated "
    "for burns. The fire service said the blaze was probably started by a spark from farm "
    "machinery; a 67-year-old farmer has been questioned. Chios lost nearly a fifth of its "
    "forests in a fire in 2012."
)

_LANDLORD = (
    "A landlord who let out flats riddled with damp and mould has been ordered to pay £38,500 "
    "after admitting 11 offences at Bexley Magistrates' Court. Raymond Okoye, 61, who owns 14 "
    "properties in south-east London, was prosecuted by Bexley council after tenants complained "
    "about leaking roofs and broken heating. The court heard that a two-year-old child living "
    "in one of the flats had been admitted to hospital twice with breathing problems. Okoye "
    "told the court he had been unable to pay for repairs because of rising interest rates. The "
    "council said it had issued 230 improvement notices to private landlords in the past year, "
    "up from 150 the year before."
)

_STRIKE = (
    "Cabin crew at the budget airline SkyNorth will strike for four days over Easter after pay "
    "talks collapsed, the Unite union said on Monday. About 1,200 flight attendants based at "
    "Manchester and Glasgow voted by 87% in favour of action, on a turnout of 71%. The airline "
    "said it would try to run most of its flights and that passengers would be told by text "
    "message if theirs was cancelled. SkyNorth has offered a 4% pay rise this year; the union "
    "wants 9%, saying its members' pay has fallen behind inflation since 2021. Last summer a "
    "strike by the airline's baggage handlers at Glasgow led to 140 cancellations."
)

_RATES = (
    "The Bank of Lusland held its main interest rate at 4.25% on Wednesday, the fourth meeting "
    "in a row without a change. Six of the nine members of the monetary policy committee voted "
    "to hold, while three wanted a cut of a quarter of a percentage point. Governor Petra "
    "Hallam said inflation, which fell to 2.9% in October from 3.4% in September, was still too "
    "high to cut rates safely. The bank now expects growth of 0.8% next year, down from its "
    "earlier forecast of 1.2%. Mortgage lenders had already begun cutting their fixed-rate "
    "deals in anticipation of a cut early next year."
)

_TRANSFER = (
    "Ashford United have signed the Brazilian midfielder Caio Ramos from Porto for a fee of €32 "
    "million, which could rise to €40 million with add-ons. The 23-year-old, who scored nine "
    "goals in the Portuguese league last season, has signed a five-year contract. Ramos had "
    "been a target of Ashford's rivals Kingsmere City, who made two offers in the summer that "
    "Porto rejected. Manager Tom Reilly said Ramos would 'add energy to our midfield', but "
    "warned that he would need time to adapt to English football. Ramos is the club's third "
    "signing of the January window."
)

_FLOOD = (
    "Heavy rain caused the River Lune to burst its banks on Saturday, flooding around 300 homes "
    "in Lancaster and the surrounding villages. The Environment Agency issued 14 severe flood "
    "warnings, meaning a danger to life, and more than 1,000 people spent the night in "
    "emergency shelters. A 71-year-old man was rescued from his car near Caton after it was "
    "swept off the road. The river peaked at 6.2 metres on Sunday morning, just below the "
    "record set in 2015. Forecasters said more rain was expected on Wednesday, though less than "
    "at the weekend."
)

_FERRY = (
    "The ferry operator Baltic Link will close its route between Rostock and Trelleborg in "
    "March, blaming rising fuel costs and falling passenger numbers. The route carried 410,000 "
    "passengers last year, a third fewer than in 2019. About 120 crew jobs will go, although "
    "the company said it hoped to move some staff to its Gdansk route. The German port "
    "authority said it was disappointed and would seek another operator. Baltic Link's chief "
    "executive, Anna Berg, said the decision had been 'extremely difficult'."
)

_SCHOOL = (
    "Hollybank Academy in Leeds has been rated 'inadequate' by Ofsted, two years after it was "
    "judged 'good'. Inspectors found that pupils' behaviour had declined and that bullying was "
    "not dealt with quickly enough. They praised the school's sixth form, which they said was "
    "well led. The academy's trust said it had appointed a new headteacher, Mark Doyle, who "
    "will start in January. About 1,100 pupils attend the school."
)

_ZOO = (
    "Chester Zoo has announced the birth of a critically endangered eastern black rhino calf, "
    "the first born at the zoo in three years. The female calf was born on 14 October to mother "
    "Zuri after a 15-month pregnancy. Keepers said the calf was standing within 10 minutes of "
    "her birth. Fewer than 600 eastern black rhinos are thought to remain in the wild. The zoo "
    "has asked the public to help choose a name."
)

_COURT = (
    "A jury at Bristol Crown Court has cleared a former nursery worker of assaulting three "
    "children in her care. Lauren Pike, 34, had denied four counts of assault by beating at the "
    "Little Oaks nursery in Clifton between 2021 and 2022. The jury deliberated for nine hours "
    "before returning not guilty verdicts on all counts. After the verdict, Pike's solicitor "
    "said she had been 'through hell' and thanked her family for their support. Avon and "
    "Somerset Police said it respected the jury's decision."
)


# The articles of the 0.7.42 probe (its headline lines left out).
_LIBRARIES = (
    "Councillors in Portmere voted on Tuesday to close the Eastgate and Milton Road libraries"
    " by the end of March, as the city tries to save £2.4 million from its culture budget "
    "over the next two years. The motion passed by 23 votes to 19 after a four-hour meeting. "
    "The remaining three libraries will extend their opening hours on Saturdays, and a mobile"
    " library van will visit Eastgate twice a week. The council's cabinet member for culture,"
    ' Ruth Adebayo, said the decision was "painful but unavoidable" and blamed a 9% cut in '
    "the grant the city receives from central government. Campaigners, who handed in a "
    "petition with 11,000 signatures last month, said they would seek a judicial review. "
    "Milton Road library, which opened in 1931, is a listed building; the council said it "
    "would try to find a community group to run it as a café and reading room. Library visits"
    " in Portmere fell by 18% between 2019 and 2024, according to council figures, while "
    "e-book loans more than doubled over the same period. Eleven staff posts will go, "
    "although the council hopes most can be filled by redeployment."
)


_MIGRAINE = (
    "A new preventive migraine drug, velantrib, reduced the number of monthly migraine days "
    "by an average of 4.1 in a 12-week trial, compared with 2.3 days for patients given a "
    "placebo, researchers reported in The Lancet Neurology on Monday. The trial, run at 46 "
    "hospitals in Europe and North America, enrolled 812 adults who had between eight and 14 "
    "migraine days a month. About 38% of those taking velantrib halved their migraine days, "
    "against 21% on placebo. However, 7% of patients stopped taking the drug because of side "
    "effects, mostly nausea and dizziness, compared with 2% in the placebo group. Dr Helen "
    "Marsh, a neurologist at the University of Leeds who was not involved in the study, said "
    'the benefit was "real but modest" and that longer trials were needed before the drug '
    "could be recommended over existing treatments. The drug's maker, Corvane Pharma, funded "
    "the study and said it would apply for approval in the EU and the US next year. The "
    "company has not said what the drug will cost. Migraine affects about one in seven people"
    " worldwide and is more common in women than in men."
)


_STORM = (
    "Storm Ida brought gusts of up to 94 mph to the north-west coast overnight on Sunday, "
    "bringing down trees and power lines and leaving around 60,000 homes without electricity,"
    " the energy network operator said. By Monday evening power had been restored to all but "
    "8,000 homes, most of them in rural areas of Cumbria. The operator said some customers "
    "might not be reconnected until Wednesday. A man in his 70s died when a tree fell on his "
    "car near Keswick, police said. Two other people were taken to hospital with minor "
    "injuries after a roof collapsed in Whitehaven. Rail services between Carlisle and "
    "Lancaster were suspended for most of Monday, and the Windermere ferry did not run. More "
    "than 40 schools stayed closed. The Met Office had issued a red warning for wind, its "
    "highest level, for parts of the coast from midnight until 6am. It said a further yellow "
    "warning for rain was in place for Wednesday, with up to 80mm expected on high ground. "
    "Ida is the fourth named storm of the season."
)


# The articles of the second 0.7.42 probe (run once after the first probe's rules).
_JOBS = (
    "Brightwell Foods, the maker of Crunchies cereal bars, said on Thursday it would cut 300 "
    "jobs, about 6% of its workforce, after its annual profit fell by 41% to £38 million. "
    "Revenue was broadly flat at £912 million. The company blamed higher prices for cocoa and"
    " packaging and weaker sales in its German business, which it plans to sell by the end of"
    " next year. Most of the job losses will be at its factory in Wrexham, which will stop "
    "making biscuits and focus on cereal bars; the Leeds head office will lose around 40 "
    "roles. Chief executive Sara Lind, who joined the company from a rival in March, said the"
    ' cuts were "difficult but necessary" to get Brightwell "back on track". She said the '
    "company would invest £25 million in new production lines in Wrexham over the next three "
    'years. The GMB union said it was "shocked" by the announcement and would ballot members '
    "on industrial action. Shares in Brightwell rose 3% in early trading, having fallen by a "
    "quarter over the past year. The company will not pay a final dividend."
)


_CUP = (
    "A stoppage-time penalty from Kofi Mensah gave Dunmore Rovers a 2-1 win over Castlebridge"
    " City on Saturday and a place in the semi-finals of the county cup for the first time "
    "since 1994. City had taken the lead after 23 minutes when Tom Reilly headed in a corner,"
    " and they should have doubled it before half-time, but goalkeeper Luis Ortega saved "
    "Reilly's penalty. Rovers equalised ten minutes after the break through 19-year-old Jamie"
    " Cole, his first goal for the club. With the match heading for extra time, City defender"
    " Aaron Flynn handled in the area and Mensah scored from the spot in the 93rd minute. "
    "Flynn was later sent off for a second booking after protesting to the referee. Rovers "
    'manager Claire Dobbs said her side had "never stopped believing". City, who are two '
    "divisions above Rovers, have now lost three games in a row. A crowd of 4,120, the "
    "largest at Rovers' ground this season, watched the match. The semi-final draw will be "
    "made on Monday."
)


_COMMUTE = (
    "People who spend more than an hour commuting each way sleep on average 22 minutes less a"
    " night than those with commutes under 20 minutes, according to a study of 14,300 workers"
    " in the Netherlands published in the journal Sleep Health. The researchers, from Utrecht"
    " University, followed the workers for two years using questionnaires and, for a subset "
    "of 1,200, wrist-worn sleep trackers. The link was stronger for people who drove than for"
    " those who took trains or cycled, and it held after taking account of age, income and "
    "working hours. Long commuters were also 30% more likely to report daytime tiredness. "
    "However, the study found no difference in reported job satisfaction between the groups. "
    "Lead author Dr Marieke de Vries said the findings did not prove that commuting caused "
    "the poorer sleep, since people who sleep badly might choose to live further from work "
    "for other reasons. She said employers could help by allowing flexible start times. The "
    "study did not look at people who work from home."
)


# The articles of 0.7.43's misfire probe (right claims in the new rule's words beside wrong ones;
# written after its first version, which caught none of the wrong ones, so the rule as mended
# from it reads them in-sample).
_DERBY = (
    "Harbour Town lost 3-1 at home to Millbrook on Saturday, their fourth defeat in five games. "
    "Millbrook, who sit two places below Harbour Town in the table, won for the first time since "
    "August. Harbour Town manager Neil Ames said his side had lost their way. Millbrook's Sam "
    "Okoro scored twice. Harbour Town won the league two seasons ago and remain above the "
    "relegation places."
)
_ELECTION = (
    "In the council election, the Greens won 14 seats, up from 9, while Labour lost six of their "
    "20 seats. The Liberal Democrats held all 8 of theirs. Turnout was 34%, below the 2019 figure "
    "of 38%. Council leader Amy Roth, of Labour, lost her seat in Eastfield but said she would "
    "stay on as group leader."
)
_BOOKING = (
    "The hospital's new booking system failed twice in its first week, leaving staff to use paper "
    "records. The backup servers did not fail. A review found the supplier had failed to test the "
    "software under load. The old system, which ran for twelve years, never failed on a weekday."
)


# The articles of 0.7.42's misfire probe (right claims in the new rules' words).
_HEATWAVE = (
    "Temperatures reached 44C in Seville on Tuesday as a heatwave spread across southern "
    "Europe. Three people died of heatstroke in Spain, and 40 others were treated in hospital"
    " for heat exhaustion. In Italy, two farm workers were taken to hospital after collapsing"
    " in fields near Foggia; both have since been released. Spain's weather agency said the "
    "heatwave was more intense in the south than in the north, where temperatures stayed "
    "below 35C. Demand for electricity was higher on Tuesday than on any day since 2022, but "
    "the grid did not fail. Authorities said almost all schools in Andalusia had closed early"
    " for the summer, and all outdoor work between 2pm and 5pm was banned in the region. A "
    "study published last year found no difference in heat deaths between cities with and "
    "without early-warning systems, though researchers said the data were patchy. The agency "
    "said temperatures would fall by the weekend, but did not rule out another heatwave in "
    "August. The ferry between Algeciras and Tangier ran normally."
)


_CHESS = (
    "Northgate Chess Club won the national league title on Sunday, beating Riverside 5-3 in "
    "the final round. Riverside had led the table for most of the season but did not win any "
    "of their last three matches. Northgate's top board, 16-year-old Amira Haddad, won all "
    "four of her games over the weekend. Her opponent in the last round, Riverside's captain "
    "Paul Grant, did not lose a game all season until Sunday. Haddad, who joined the club at "
    "the age of nine, said she had never played better. The club has more junior members than"
    " any other in the league, and spends more on coaching than on travel. Northgate's "
    "chairman, Ken Obi, who founded the club in 1998 with two friends, said the title was "
    '"the best day in our history". Riverside\'s manager said his team had made more mistakes '
    "than usual. The league's player of the year award did not go to Haddad; it went to "
    "Grant."
)


# In the shapes of 0.7.43's held probe (its own texts are not kept): a tennis report and a
# telecoms operator's results.
_TENNIS = (
    "Second seed Maria Kovac beat Elena Ruiz 6-3, 6-4 on Saturday to reach the final of the "
    "Lakeside Open. Kovac will face top seed Lena Brandt, who beat her in last year's final. "
    "Brandt has not dropped a set this week."
)


_TELECOM = (
    "Norvik, the country's second-largest telecoms operator, reported a 4% fall in quarterly "
    "profit on Thursday. The company lost 20,000 mobile subscribers in the quarter. Chief "
    "executive Ingrid Dahl said prices would go up by 5% in January."
)


# 0.7.44's held probe, written by another hand before it ran and run once (a planning
# decision, a chemist's life, a storage company's help page; 24 sentences, half of them wrong).
_MILL = (
    "Plans to convert the derelict Albion Mill in Castleford Bridge into 42 flats were "
    "approved by Harwick District Council's planning committee on Tuesday evening, despite "
    "objections from more than 60 residents.\n\nThe scheme, submitted by developer Northgate "
    "Homes, will keep the mill's 1870s brick façade and chimney while replacing the rear "
    "loading sheds with a two-storey car park of 38 spaces. Nine of the flats will be offered"
    " as affordable housing, below the 12 that council policy normally expects; the developer"
    " argued that the cost of repairing the listed chimney made a higher number unviable, and"
    " an independent assessor commissioned by the council agreed.\n\nCommittee members voted "
    "seven to four in favour. Councillor Ruth Okafor, who chairs the committee, said the "
    "building had been empty for almost two decades and 'every winter we lose a little more "
    "of it.' Councillor Dennis Hale, who represents the ward, voted against, saying the car "
    "park would push more traffic onto the narrow Mill Lane.\n\nResidents who spoke at the "
    "meeting raised concerns about parking and about the loss of a bat roost in the sheds. A "
    "condition attached to the permission requires a bat survey before demolition starts, and"
    " the developer must pay £85,000 towards a new crossing on Station Road.\n\nNorthgate Homes"
    " said it hoped to begin work next spring, subject to the survey, with the first "
    "residents possibly moving in by late 2027. The company said the project would create "
    "around 120 construction jobs."
)


_VARGA = (
    "Elena Varga Szabó (1868–1931) was a Hungarian chemist and educator best known for her "
    "work on the preservation of paper and for founding the conservation laboratory of the "
    "Metropolitan Library in Budapest.\n\nBorn in Szeged, the daughter of a printer, Varga "
    "studied chemistry in Zurich because Hungarian universities did not admit women until "
    "1895. She completed her doctorate there in 1893 under the supervision of Heinrich "
    "Albisser, with a thesis on the acidity of wood-pulp paper. After returning to Hungary "
    "she taught at a girls' secondary school in Budapest for eleven years.\n\nIn 1905 the "
    "library's director, Ferenc Koszorús, invited her to examine the deterioration of its "
    "nineteenth-century newspaper collections. Her report, published in 1907, showed that "
    "paper made after about 1850 was decaying far faster than older rag paper, and "
    "recommended storing it in cooler, darker rooms. The laboratory she set up in 1909 was "
    "among the first of its kind in Central Europe, though a similar unit had opened in "
    "Vienna two years earlier.\n\nVarga never married. She retired in 1926 and spent her last "
    "years translating German chemistry textbooks into Hungarian. Her notebooks, held by the "
    "library, suggest she had begun experiments with alkaline washing of paper, but she "
    "published nothing on the subject. A street in Szeged was named after her in 1998."
)


_STORAGE = (
    "Keepwell Self Storage Help Centre: changing or ending your rental\n\nYou can switch to a "
    "larger or smaller unit at any time, subject to availability at your site. Upgrades take "
    "effect immediately and the price difference is charged pro rata for the rest of your "
    "billing month. Downgrades take effect from your next billing date; we do not refund the "
    "difference for the current month.\n\nTo end your rental, give us at least 14 days' notice "
    "through the app or at the site office. If you move out before the notice period ends, "
    "you will still be charged until the end of it. Your unit must be empty, swept and "
    "unlocked by 6 pm on your final day, and you must return any access fob to the office. A "
    "replacement fob costs £15, and an unreturned fob is charged at the same rate.\n\nPayments "
    "are taken on the 1st of each month. If a payment fails, we will retry it after 3 days. A"
    " late fee of £20 is added if the balance is still unpaid 10 days after the due date, and"
    " gate access is suspended after 14 days.\n\nCustomers on our Business plan can have up to "
    "5 named users on one account; Personal plans allow 2. Access hours are 6 am to 10 pm "
    "every day, except on 25 December, when all sites are closed. Some sites offer 24-hour "
    "access for an extra £8 a month; check your site page to see if yours does."
)


KNOWN: list[Case] = [
    # (name, answer, facts, does a person call the last claim supported?)
    (
        "attachment 100 MB vs fact 50 MB",
        "On the Pro plan each attachment can be up to 100 MB.",
        [
            "Each attachment can be up to 50 MB on the Pro plan and up to 10 MB on the Free plan.",
            "Pro workspaces include 100 GB of storage per member.",
        ],
        False,
    ),
    (
        "Jupiter/Saturn moon count swap",
        "Jupiter has the most known moons, with 274 confirmed.",
        [
            "Saturn has the most known moons of any planet, with 274 confirmed as of 2025. Jupiter follows with 97."
        ],
        False,
    ),
    (
        "Saturn moons, right",
        "Saturn has the most known moons, with 274 confirmed.",
        [
            "Saturn has the most known moons of any planet, with 274 confirmed as of 2025. Jupiter follows with 97."
        ],
        True,
    ),
    (
        "a count the source never writes (two leaders)",
        "The two leaders met in Geneva.",
        ["President Biden met President Putin in Geneva on June 16."],
        True,
    ),
    (
        "opposed vs supported",
        "Mayor Jane Doe opposed the measure.",
        ["Mayor Jane Doe supported the measure, which passed on Tuesday."],
        False,
    ),
    (
        "who beat whom (role swap)",
        "Smith defeated Jones in the final.",
        ["Jones defeated Smith in the final, 6-4, 6-3."],
        False,
    ),
    (
        "who was defeated by whom (both passive)",
        "Smith was defeated by Jones in the final.",
        ["Jones was defeated by Smith in the final, 6-4, 6-3."],
        False,
    ),
    (
        "which plan costs more (comparative swap)",
        "The Silver plan costs more than the Gold plan.",
        ["The Gold plan costs more than the Silver plan: $40 a month against $25."],
        False,
    ),
    (
        "a negation of another form of the verb",
        "EcoGenius does not provide smart building solutions.",
        ["Dear Tom, EcoGenius provides smart building solutions that cut energy costs."],
        False,
    ),
    (
        "Vertex: Titanic directed by Cameron",
        "Titanic is a 1997 American epic romantic disaster film directed by James Cameron.",
        [
            "Titanic is a 1997 American epic romantic disaster film. It was directed, written, produced, and co-edited by James Cameron."
        ],
        True,
    ),
    (
        "Vertex: It was based on the sinking (pronoun)",
        "Titanic is a 1997 film. It was based on the sinking of the RMS Titanic.",
        [
            "Titanic is a 1997 film.",
            "The film is based on accounts of the sinking of the RMS Titanic in 1912.",
        ],
        True,
    ),
    (
        "Vertex: It starred Brad Pitt (wrong name)",
        "Titanic is a 1997 film. It starred Brad Pitt and Kate Winslet.",
        ["Titanic is a 1997 film.", "The film stars Leonardo DiCaprio and Kate Winslet."],
        False,
    ),
    # a limit until engine 0.7.24 (`contrary.kind_unstated`): the kind the page gives is another
    (
        "a short claim's one telling word not on the page (Barbarella)",
        "Barbarella is a comedy film.",
        [
            "Barbarella is a 1968 science fiction film directed by Roger Vadim based on the "
            "French comic Barbarella."
        ],
        False,
    ),
    # a limit until engine 0.7.29: a day of a month was backed by any number of its value
    (
        "a day of a month the page writes only as a time's minutes (Pendleton)",
        "Brian Pendleton died on 16 May 2001.",
        [
            "Published 26 June 2001, 21:16 EDT. Brian Pendleton, musician, born April 13 1944; "
            "died May 25 2001."
        ],
        False,
    ),
    # a limit until engine 0.7.30: a clock's minutes with nothing after them were a plain number
    (
        "a day of a month the page writes only as a clock's bare minutes",
        "Brian Pendleton died on 16 May 2001.",
        [
            "Posted 26 June 2001 at 21:16. Brian Pendleton, musician, born April 13 1944; "
            "died May 25 2001."
        ],
        False,
    ),
    # until engine 0.7.31: a help page's opening "No," read as denying the words after it
    (
        "a page's answer that opens with 'No,' (refunds)",
        "Refunds take 10 days.",
        ["Are refunds instant? No, refunds take 10 days."],
        True,
    ),
    # a limit until engine 0.7.31: a plain number that says nothing of what it counts backed a day
    (
        "a day of a month the page gives only as a plain number (track 16)",
        "Brian Pendleton died on 16 May 2001.",
        [
            "Brian Pendleton, musician, born April 13 1944; died May 25 2001. He plays on "
            "the compilation's track 16."
        ],
        False,
    ),
    # until engine 0.7.32: a capital that opens the claim was no name, and the soft match alone
    # told the cities apart
    (
        "a subject the page never names, where another city takes its place (Osaka)",
        "Osaka has 14 million people.",
        ["Tokyo has 14 million people. The population of Tokyo grew by 1% last year."],
        False,
    ),
    # until engine 0.7.32: MiniLM read a PDF's ligatures as [UNK]
    (
        "a page's PDF ligatures ('\ufb02ight', '\ufb01ve')",
        "The flight took five hours.",
        ["The \ufb02ight took \ufb01ve hours."],
        True,
    ),
    # until engine 0.7.32: a row's "Plan: Pro" read as a word the page writes in lower case
    (
        "a price from another row of a pricing table",
        "The Pro plan costs $35 per month.",
        [
            "| Plan | Price per month | Storage |\n|---|---|---|\n| Free | $0 | 5 GB |\n"
            "| Pro | $20 | 100 GB |\n| Team | $35 | 1 TB |"
        ],
        False,
    ),
    # until engine 0.7.32: a spec sheet's "Price: $35 per month" said nothing of whose price it is
    (
        "a price from another section of a spec sheet",
        "The Pro plan costs $35 per month.",
        [
            "Pro plan\nPrice: $20 per month\nStorage: 100 GB\n\n"
            "Team plan\nPrice: $35 per month\nStorage: 1 TB"
        ],
        False,
    ),
    # until engine 0.7.33: every word of the claim was in some list, so every part was backed
    (
        "a feature from another plan's list",
        "The Free plan includes single sign-on.",
        [
            "Pro plan features:\n- Single sign-on (SSO)\n- Audit logs\n\n"
            "Free plan features:\n- Up to 3 projects\n- Community support"
        ],
        False,
    ),
    (
        "a step from another platform's steps",
        "On Android, open Settings and tap Account.",
        [
            "To reset your password on iOS:\n1. Open Settings.\n2. Tap Account.\n\n"
            "To reset your password on Android:\n1. Open the menu.\n2. Tap Security."
        ],
        False,
    ),
    (
        "a change from another version of a changelog",
        "Version 2.4 added dark mode.",
        [
            "## Version 2.5 (June 2024)\n- Added dark mode\n- Fixed a crash\n\n"
            "## Version 2.4 (March 2024)\n- Added CSV export\n- Faster search"
        ],
        False,
    ),
    # until engine 0.7.33: the page's minute was no rate, and a slashed date was no date
    (
        "requests per hour where the page allows them per minute",
        "The Free tier allows 60 requests per hour.",
        [
            "The Free tier allows 60 requests per minute. The Pro tier allows 600 requests per minute."
        ],
        False,
    ),
    (
        "a date written 03/15/2024 for the page's 2024-03-15",
        "Version 2.4 was released on 03/15/2024.",
        ["Version 2.4 was released on 2024-03-15. Version 2.5 followed on 2024-06-02."],
        True,
    ),
    # until engine 0.7.33: "a failed request" read as a denial of what the page says of it
    (
        "a default the page gives beside 'a failed request'",
        "max_retries defaults to 5.",
        [
            "The `max_retries` option sets how many times a failed request is retried. "
            "It defaults to 5. Set it to 0 to disable retries."
        ],
        True,
    ),
    # until engine 0.7.34: "Tuesday" was nowhere in "Monday through Friday", and "weekends" close
    # enough to it to pass
    (
        "weekends where the page gives Monday through Friday",
        "Support is available on weekends.",
        ["Our support team is available Monday through Friday, 9 a.m. to 5 p.m. Eastern."],
        False,
    ),
    (
        "a day inside the page's span of days",
        "You can reach support on Tuesday.",
        ["Our support team is available Monday through Friday, 9 a.m. to 5 p.m. Eastern."],
        True,
    ),
    (
        "24/7 where the page gives hours",
        "Support is available 24/7.",
        ["Our support team is available Monday through Friday, 9 a.m. to 5 p.m. Eastern."],
        False,
    ),
    # until engine 0.7.34: a span bounded the other way, a release's number rounded, a ceiling
    # written "must not exceed", an amount the next clause gives to another thing
    (
        "a refund after 14 days where the page allows it within 14 days",
        "You can get a refund after 14 days.",
        ["Refunds are available within 14 days of purchase. After 14 days, no refunds are given."],
        False,
    ),
    (
        "a default of 3 where the page names Python 3.11",
        "max_retries defaults to 3.",
        [
            "This client requires Python 3.11 or later. The max_retries setting controls how many "
            "times a failed request is retried. It defaults to 5."
        ],
        False,
    ),
    (
        "'up to 7 kg' for the page's 'must not exceed 7 kg'",
        "Carry-on bags can weigh up to 7 kg.",
        ["Carry-on bags must not exceed 7 kg and 55 x 40 x 20 cm."],
        True,
    ),
    (
        "the primary caregiver's weeks given to the secondary",
        "Secondary caregivers get 16 weeks of parental leave.",
        [
            "Parental leave is 16 weeks at full pay for the primary caregiver and 4 weeks for the "
            "secondary caregiver."
        ],
        False,
    ),
    (
        "'5 unused vacation days' for the page's '5 days'",
        "You can carry over up to 5 unused vacation days.",
        ["Unused vacation days can be carried over, up to a maximum of 5 days."],
        True,
    ),
    (
        "a feature from another plan's one-line list",
        "The Free plan includes single sign-on.",
        [
            "Pro plan features: single sign-on, audit logs and priority support.\n"
            "Free plan features: up to 3 projects and community support."
        ],
        False,
    ),
    (
        "without a valid API key, as the page says it",
        "A request without a valid API key gets a 401 response.",
        [
            "All requests must include an API key in the Authorization header. Requests without "
            "a valid key return HTTP 401."
        ],
        True,
    ),
    (
        "a price of the other shipping, its own given by 'and costs'",
        "Standard shipping costs $14.99.",
        [
            "Standard shipping takes 5 to 7 business days and costs $4.99. Express shipping takes "
            "2 business days and costs $14.99. Orders over $50 ship free with standard shipping."
        ],
        False,
    ),
    (
        "economy's bags the page gives business class, its own written 'one bag' (until 0.7.35)",
        "Economy passengers may check two bags.",
        [
            "Economy passengers may check one bag of up to 23 kg. Business class passengers may "
            "check two bags of up to 32 kg each."
        ],
        False,
    ),
    (
        "a version's month from the next sentence of a changelog (until 0.7.35)",
        "Version 2.4 was released in June 2024.",
        [
            "Version 2.4 was released in March 2024 and added offline mode. Version 2.5 followed "
            "in June 2024 with dark mode."
        ],
        False,
    ),
    (
        "a dose for children the page gives adults and children over 12 (until 0.7.35)",
        "Children under 12 can take 1 tablet every 6 hours.",
        [
            "Adults and children over 12: take 1 to 2 tablets every 4 to 6 hours as needed. "
            "Children under 12: do not use unless directed by a doctor."
        ],
        False,
    ),
    (
        "a warranty's length said of the product, for the refurbished units' own (until 0.7.35)",
        "Refurbished Lumo headphones have a 2-year warranty.",
        [
            "All Lumo headphones come with a 2-year limited warranty from the date of purchase. "
            "Refurbished units carry a 90-day warranty."
        ],
        False,
    ),
    (
        "a retention the page gives the other plan, in other units (until 0.7.35)",
        "Audit logs are kept for 1 year on the Business plan.",
        [
            "Audit logs are retained for 1 year on the Enterprise plan and 90 days on the "
            "Business plan."
        ],
        False,
    ),
    (
        "an exception turned round (until 0.7.36)",
        "Even in an emergency, the landlord must give 24 hours' notice before entering.",
        ["The landlord must give 24 hours' notice before entering, except in an emergency."],
        False,
    ),
    (
        "a damage the page excludes with 'but not' (until 0.7.36)",
        "The warranty covers water damage.",
        [
            "The warranty covers manufacturing defects but not accidental damage, water damage or "
            "normal wear."
        ],
        False,
    ),
    (
        "renewals the page allows books, said of DVDs it says cannot be renewed (until 0.7.36)",
        "DVDs can be renewed twice.",
        [
            "Books can be borrowed for 3 weeks and renewed twice. DVDs are lent for 1 week and "
            "cannot be renewed."
        ],
        False,
    ),
    (
        "what 'also' gives the other policy (until 0.7.36)",
        "The Basic policy covers flood damage.",
        [
            "The Basic policy covers theft and fire. The Plus policy also covers flood damage. "
            "Neither policy covers earthquake damage. The deductible is $500 for Basic and $250 "
            "for Plus."
        ],
        False,
    ),
    (
        "'neither policy' said of one of them (until 0.7.36)",
        "The Plus policy covers earthquake damage.",
        [
            "The Basic policy covers theft and fire. The Plus policy also covers flood damage. "
            "Neither policy covers earthquake damage."
        ],
        False,
    ),
    # three right claims of the demo's answers that older rules had capped (until 0.7.36)
    (
        "the demo's refund 'after 14 days' that the page gives 'after that' (until 0.7.36)",
        "After 14 days: a prorated refund, minus a 2.5% processing fee.",
        [
            "Annual plans can be cancelled at any time from Settings > Billing. Within 14 days of "
            "purchase you get a full refund; after that the refund is prorated and a 2.5% "
            "processing fee is deducted."
        ],
        True,
    ),
    (
        "the demo's answer opening 'No.', shortened (until 0.7.36)",
        "No. Shared notes only show plain and formatted text.",
        [
            "Shared notes are rendered as plain text and formatted text only. Scripts and other "
            "active content, for example <script> tags, are displayed as text and never executed."
        ],
        True,
    ),
    (
        "the demo's East and West, one to each emperor (until 0.7.36)",
        "Arcadius ruled the East from Constantinople, and Honorius ruled the West.",
        [
            "After Theodosius I died in 395, the empire was permanently divided between his sons: "
            "Arcadius ruled the East from Constantinople and Honorius the West."
        ],
        True,
    ),
    # news articles summarised, one fact each (the session's two news probes; until 0.7.37)
    (
        "a runner's place given as another's (until 0.7.37)",
        "Hana Sato, last year's winner, finished third.",
        [
            "Moreno, 29, was running the race for the third time. Kenyan runner Grace Wanjiru was "
            "second, 18 seconds behind, and last year's winner, Hana Sato of Japan, finished fifth."
        ],
        False,
    ),
    (
        "an age between commas that the page gives as minutes (until 0.7.37)",
        "Moreno, 24, broke the course record.",
        [
            "Alicia Moreno won the women's title in 2 hours 24 minutes, breaking the course record "
            "by 41 seconds. Moreno, 29, was running the race for the third time."
        ],
        False,
    ),
    (
        "'this year' for the page's 'next year' (until 0.7.37)",
        "The company will close its Dayton factory by the end of this year.",
        [
            "Larkspur now expects sales to grow between 2% and 3% this year. The company also "
            "announced it would close its factory in Dayton, Ohio, affecting about 400 workers, "
            "by the end of next year."
        ],
        False,
    ),
    (
        "the larger model's screen said of the smaller (until 0.7.37)",
        "The Nimbus 5 has a 6.9-inch screen.",
        [
            "Its new Nimbus 5 phone will go on sale at 799 euros. The Nimbus 5 does not come with "
            "a charger. A larger Nimbus 5 Max, with a 6.9-inch screen, will follow for 999 euros."
        ],
        False,
    ),
    (
        "'who proposed the plan' pinned on the opponent (until 0.7.37)",
        "Frank Hale, who proposed the plan, said it would make downtown safer.",
        [
            "Council member Dana Ortiz, who proposed the plan, said it would make the downtown "
            "safer. Opponents, led by council member Frank Hale, argued it would hurt local shops."
        ],
        False,
    ),
    (
        "what the association asked the council to do, said as done (until 0.7.37)",
        "The council delayed the vote until a traffic study was finished.",
        [
            "The Riverton Business Association had asked the council to delay the vote until a "
            "traffic study was finished. The council voted 6-3 on Tuesday to approve the plan."
        ],
        False,
    ),
    (
        "a charger 'unlike its predecessor' does not come with (until 0.7.37)",
        "The Nimbus 5 comes with a charger in the box.",
        ["Unlike its predecessor, the Nimbus 5 does not come with a charger in the box."],
        False,
    ),
    (
        "'the sculptor' for the page's 'the painter' (until 0.7.37)",
        "Ellison is married to the sculptor David Reyes.",
        ["She lives in Cornwall with her husband, the painter David Reyes."],
        False,
    ),
    (
        "'the women's title' is the women's race (right; until 0.7.37)",
        "Alicia Moreno won the women's race at the Brightwater Marathon.",
        [
            "Alicia Moreno won the women's title at the Brightwater Marathon on Sunday. In the "
            "men's race, Tomas Lind of Sweden won in 2 hours 8 minutes."
        ],
        True,
    ),
    (
        "profit 'rose' though the forecast is 'down' (right; until 0.7.37)",
        "Larkspur's quarterly profit rose to $312 million.",
        [
            "Larkspur now expects sales to grow between 2% and 3% this year, down from its earlier "
            "forecast of 4% to 5%. Quarterly profit rose to $312 million from $298 million a year "
            "earlier."
        ],
        True,
    ),
    (
        "'found no sign of water vapour' backs 'did not find any' (right; until 0.7.37)",
        "The researchers did not find any water vapour.",
        [
            "The team said the finding could help explain how such planets form. They found no "
            "sign of water vapour, which surprised them."
        ],
        True,
    ),
    (
        "'Born in Uppsala, he…' is about Berg (right; until 0.7.37)",
        "Berg opened his own practice in 1962 after working for Sven Markelius.",
        [
            "Tomas Berg was a Swedish architect. Born in Uppsala, he trained in Stockholm and "
            "worked for Sven Markelius before opening his own practice in 1962."
        ],
        True,
    ),
    (
        "'doubled' where the page says 'tripled' (until 0.7.37)",
        "The number of short-term rentals in the historic centre has doubled since 2015.",
        ["The number of short-term rentals in the historic centre had tripled since 2015."],
        False,
    ),
    (
        "'Uppsala University' for 'Lund University' (until 0.7.37)",
        "Berg taught at Uppsala University from 1975 to 1996.",
        [
            "Born in Uppsala, he trained at the Royal Institute of Technology in Stockholm. Berg "
            "taught at Lund University from 1975 to 1996."
        ],
        False,
    ),
    (
        "a founder's name in the investor's slot (until 0.7.37)",
        "Vireo raised 25 million euros in a round led by Brandt Ventures.",
        [
            "Vireo has raised 25 million euros in a funding round led by Northstar Ventures. The "
            "company, founded in 2019 by Lea Brandt and Omar Haddad, makes sorting software."
        ],
        False,
    ),
    # Wikipedia-style claims against the articles they cite (the session's probe; until 0.7.38)
    (
        "a birthplace the page gives the move after it (until 0.7.38)",
        "Whitfield was born in New Orleans and played in brass bands.",
        [
            "Born in Memphis, Whitfield moved to New Orleans as a teenager and played in brass "
            "bands before joining the quintet of pianist Leon Marsh in 1961."
        ],
        False,
    ),
    (
        "a founding year the page gives the move (until 0.7.38)",
        "The museum was founded in 1958.",
        [
            "The museum was founded in 1911 by Edith Kessler, a schoolteacher, and it moved to the "
            "former Corn Exchange building in 1958."
        ],
        False,
    ),
    (
        "one brother's departure given to the other (until 0.7.38)",
        "Tom Price left the business in 2011 to train as a teacher.",
        [
            "Greywater Brewing was started in 1996 by brothers Tom and Andy Price. Andy left the "
            "business in 2011 to train as a teacher, and Tom ran the brewery alone until 2016."
        ],
        False,
    ),
    (
        "'number one' where the page says number 9 (until 0.7.38)",
        "His album Delta Night reached number one on the Billboard jazz chart.",
        [
            "He recorded 14 albums as a leader, the best known being Delta Night, released in "
            "1967, which reached number 9 on the Billboard jazz chart."
        ],
        False,
    ),
    (
        "the whole collection said to be on display (until 0.7.38)",
        "About 30,000 objects from the collection are on display.",
        ["The museum holds about 30,000 objects, of which roughly 2,000 are on display."],
        False,
    ),
    (
        "'doubled the brewery's capacity' where it tripled (until 0.7.38)",
        "The move to Kendal in 2005 doubled the brewery's capacity.",
        [
            "In 2005 we moved to a purpose-built brewhouse in Kendal, which tripled our capacity "
            "to 60 barrels a week."
        ],
        False,
    ),
    (
        "'without' before what the claim does not say (right; until 0.7.38)",
        "Her group's ceramic electrolyte lets lithium-metal cells charge in under 15 minutes.",
        [
            "Lin's group developed a ceramic electrolyte that lets lithium-metal cells charge in "
            "under 15 minutes without forming dendrites, the metal spikes that cause short "
            "circuits."
        ],
        True,
    ),
    (
        "a university the page names in a sentence about her (until 0.7.38)",
        "She plans to study medicine at the University of Lisbon.",
        [
            "Ribeiro, who was born in Porto and trained in Lisbon, became the first Portuguese "
            "woman to win an Olympic swimming medal. She plans to study medicine at the "
            "University of Coimbra."
        ],
        False,
    ),
    (
        "a count given the place 'and two in' gives another (until 0.7.38)",
        "Its robots are used at 45 sorting facilities in Canada.",
        [
            "Ferris Robotics makes robots for sorting recycling. Its robots are now used at 45 "
            "sorting facilities in the United States and two in Canada."
        ],
        False,
    ),
    (
        "silver for the page's bronze (until 0.7.38)",
        "Ana Ribeiro won Olympic silver in the 200 metres butterfly in Tokyo.",
        [
            "Portuguese swimmer Ana Ribeiro, who won Olympic bronze in the 200 metres butterfly "
            "in Tokyo, announced her retirement on Monday at the age of 31."
        ],
        False,
    ),
    # Wikipedia-style claims against the articles they cite (the 0.7.39 probe; until 0.7.39)
    (
        "a league the page says the club was promoted to, said won (until 0.7.39)",
        "Ashgrove won the Northern Premier League in 2009.",
        [
            "The club won the Northern Counties East League in 2009 and were promoted to the "
            "Northern Premier League, where they spent six seasons before being relegated in 2015."
        ],
        False,
    ),
    (
        "an award the page says was shortlisted, beside one it won (until 0.7.39)",
        "The Salt Orchard won the Costa Novel Award.",
        [
            "The novel was shortlisted for the Costa Novel Award and won the Wales Book of the "
            "Year in 2015. Critics praised its dialogue."
        ],
        False,
    ),
    (
        "a role the page gives the other founder (until 0.7.39)",
        "Marek Sepp is the company's chief executive.",
        [
            "Kroon Labs was founded in Tallinn by Kadri Tamm and Marek Sepp, who had both worked "
            "at Skype. Tamm is the chief executive."
        ],
        False,
    ),
    (
        "'not be able to cross' where they can still cross (until 0.7.39)",
        "Pedestrians and cyclists will not be able to cross the river during the closure.",
        [
            "The bridge will close to all traffic for eighteen months from March. A temporary "
            "footbridge will be built beside it so that pedestrians and cyclists can still cross."
        ],
        False,
    ),
    (
        "two years and two cancellations: the return year moved (until 0.7.39)",
        "The festival was cancelled in 2020 because of the pandemic and returned in 2021.",
        [
            "The 2020 and 2021 festivals were cancelled because of the COVID-19 pandemic, and the "
            "festival returned in 2022 with a reduced capacity of 8,000."
        ],
        False,
    ),
    (
        "a degree given the university of the earlier one (until 0.7.39)",
        "She received her doctorate from the University of Oslo in 1952.",
        [
            "Born in Tromsø, she studied chemistry at the University of Oslo, graduating in 1946, "
            "and received her doctorate from the University of Cambridge in 1952."
        ],
        False,
    ),
    (
        "a film the page says another directed (until 0.7.39)",
        "Quentin Tarantino directed Natural Born Killers.",
        [
            "Natural Born Killers is a 1994 American crime film directed by Oliver Stone and "
            "starring Woody Harrelson. Quentin Tarantino wrote the original story."
        ],
        False,
    ),
    # News articles summarised as a summariser does (the 0.7.40 probe; until 0.7.40)
    (
        "'unanimously' where the page gives the vote as 7-4 (until 0.7.40)",
        "Harlow Vale council has approved a cycle lane plan. The council voted unanimously in "
        "favour of the scheme.",
        [_COUNCIL],
        False,
    ),
    (
        "'killed' where the page says seriously injured (until 0.7.40)",
        "Two cyclists were killed on Mill Road last year.",
        [_COUNCIL],
        False,
    ),
    (
        "the whole scheme said paid by a grant that pays half of it (until 0.7.40)",
        "The whole scheme is funded by a national active travel grant.",
        [_COUNCIL],
        False,
    ),
    (
        "a year of the sentence's other clause (until 0.7.40)",
        "Flupyradifurone was introduced in 2018 as a replacement for the banned neonicotinoids.",
        [_BEES],
        False,
    ),
    (
        "a finding the page says was not shown, said (until 0.7.40)",
        "Dr Hannah Okafor said the pesticide is more harmful than neonicotinoids.",
        [_BEES],
        False,
    ),
    (
        "'offshore' for the page's 'onshore' (until 0.7.40)",
        "Nordlys will also stop making offshore turbines for the Asian market.",
        [_NORDLYS],
        False,
    ),
    (
        "'unanimously' where the page gives the vote 6-3 (a 0.7.37 probe's; until 0.7.40)",
        "The council voted unanimously to approve the $4.2 million bike lane plan.",
        [
            "The Riverton city council voted 6-3 on Tuesday to approve a $4.2 million plan to add "
            "protected bike lanes along Main Street and Harbor Avenue."
        ],
        False,
    ),
    (
        "banned where the page says still allowed (the second probe's; until 0.7.40)",
        "Electric cars and delivery vans will also be banned from the centre.",
        [_MARREN],
        False,
    ),
    (
        "a year after a word of the claim's own, the verb left out (right; until 0.7.40)",
        "The game's PC version was released in 2021.",
        ["The game was released in 2020 for consoles, and its PC version in 2021."],
        True,
    ),
    (
        "another body's tally beside a unanimous vote (right)",
        "The committee voted unanimously to recommend the plan.",
        [
            "The committee voted 9-0 to recommend the plan, and the full council approved it 12-3 "
            "a week later."
        ],
        True,
    ),
    (
        "'five were injured' counts the people (right; until 0.7.40)",
        "Five people were injured when the bus overturned.",
        ["Two people died and five were injured when the bus overturned."],
        True,
    ),
    (
        "'All staff' says the entire staff, beside half of them (right; until 0.7.40)",
        "The entire staff moved to a new office in 2019.",
        ["Half of the 40 staff work in Leeds. All staff moved to a new office in 2019."],
        True,
    ),
    (
        "'every system' on the page says the claim's 'all systems' (right; until 0.7.40)",
        "Clara Voss said the team had been nervous but all systems were working.",
        [
            "Mission manager Clara Voss said the team had been 'extremely nervous' but that every "
            "system was working."
        ],
        True,
    ),
    (
        "a model's code is no count of the kettles (right; until 0.7.40)",
        "The KX200 kettles were sold between March 2024 and June 2025.",
        [
            "Brenna Home is recalling 80,000 electric kettles sold in the UK and Ireland. The "
            "affected KX200 model was sold between March 2024 and June 2025 by supermarkets and "
            "online."
        ],
        True,
    ),
    (
        "'would stand again' where the page says he would not (until 0.7.40)",
        "Hollis conceded and said he would stand again.",
        [
            "Hollis conceded on Sunday night and said he would not stand again. Moretti will take "
            "office on 1 July."
        ],
        False,
    ),
    (
        "the summary's right sentences beside them",
        "Nordlys Energy reported a third-quarter net loss of 1.4 billion kroner. Shares fell 11% "
        "to their lowest level since 2020.",
        [_NORDLYS],
        True,
    ),
    (
        "the role's holder, right",
        "Kadri Tamm is the company's chief executive.",
        [
            "Kroon Labs was founded in Tallinn by Kadri Tamm and Marek Sepp, who had both worked "
            "at Skype. Tamm is the chief executive."
        ],
        True,
    ),
    (
        "'rose to 212,000' where it fell to 212,000",
        "The number of patients waiting more than 18 weeks rose to 212,000 in October.",
        [_WAITING],
        False,
    ),
    (
        "'more than half' for 'almost half'",
        "More than half of them had been waiting for more than a year.",
        [_WAITING],
        False,
    ),
    (
        "'has published' what he said he would publish",
        "Health Minister Mike Nesbitt has published a new plan to cut waiting lists.",
        [_WAITING],
        False,
    ),
    (
        "the promise, right",
        "Mike Nesbitt promised a new plan to cut waiting lists before the summer.",
        [_WAITING],
        True,
    ),
    (
        "a town listed in the next verb's slot",
        "The painting will go on display in Swansea in May.",
        [_MUSEUM],
        False,
    ),
    (
        "a weekday the page gives the fighting",
        "The fire has burned about 4,000 hectares of pine forest since it broke out on Tuesday.",
        [_FIRE],
        False,
    ),
    (
        "'died' where no deaths were reported",
        "Two firefighters died fighting the blaze.",
        [_FIRE],
        False,
    ),
    (
        "burns but no deaths, right",
        "Two firefighters were treated for burns, but no one has died.",
        [_FIRE],
        True,
    ),
    (
        "'his failure to pay' for 'unable to pay', right",
        "Okoye blamed rising interest rates for his failure to pay for repairs.",
        [_LANDLORD],
        True,
    ),
    (
        "'cut' a rate the page held",
        "The Bank of Lusland cut its main interest rate to 4.25%.",
        [_RATES],
        False,
    ),
    (
        "the rate held, right",
        "The Bank of Lusland kept its main interest rate at 4.25%.",
        [_RATES],
        True,
    ),
    (
        "'unanimously' where six of the nine voted so",
        "The committee voted unanimously to hold rates.",
        [_RATES],
        False,
    ),
    (
        "a fee that 'could rise to' it, said paid",
        "Ashford United paid €40 million for Caio Ramos.",
        [_TRANSFER],
        False,
    ),
    (
        "the league's country given the player",
        "Caio Ramos is a 23-year-old Portuguese midfielder.",
        [_TRANSFER],
        False,
    ),
    (
        "the people's count given the homes",
        "More than 1,000 homes were flooded.",
        [_FLOOD],
        False,
    ),
    (
        "'forecast' for the page's 'expected', right",
        "More rain is forecast for Wednesday.",
        [_FLOOD],
        True,
    ),
    (
        "'criticised' for 'praised'",
        "Inspectors criticised the school's sixth form.",
        [_SCHOOL],
        False,
    ),
    (
        "a fall to the amount the page gives it, right",
        "Sales fell to $3.2 billion in 2022.",
        ["Sales rose to $4.1 billion in 2023, after falling to $3.2 billion in 2022."],
        True,
    ),
    (
        "'rose to 41% from 48%' where turnout fell (a limit until 0.7.41)",
        "Turnout rose to 41% from 48% at the last election.",
        ["Turnout was 41%, down from 48% at the last election in 2021."],
        False,
    ),
    (
        "'fell to 63%' where the page says '63%, up from 58%'",
        "Turnout fell to 63%.",
        ["Turnout was 63%, up from 58% four years ago."],
        False,
    ),
    (
        "'finished second' for the page's fifth",
        "Aino Salo finished second after falling on the final descent.",
        [
            "The defending champion, Finland's Aino Salo, finished fifth after falling on the final descent."
        ],
        False,
    ),
    (
        "a reached amount beside a hedged one, right (a limit until 0.7.42)",
        "Revenue reached $5 billion this year.",
        [
            "Revenue could rise to $5 billion next year, the company said, after reaching $5 billion this year."
        ],
        True,
    ),
    (
        "'nearly sunk' said sunk (an irregular participle; a limit until 0.7.42)",
        "The ship was sunk by a storm in 1912.",
        ["The ship was nearly sunk by a storm in 1912 and was repaired in Cardiff."],
        False,
    ),
    (
        "'more common in men' where the page says in women than in men (0.7.42)",
        "Migraine affects about one in seven people and is more common in men.",
        [_MIGRAINE],
        False,
    ),
    (
        "deaths counted where the page counts the same people taken to hospital (0.7.42)",
        "Two people died when a roof collapsed in Whitehaven.",
        [_STORM],
        False,
    ),
    (
        "a ferry that 'ran' where the page says it did not run (0.7.42)",
        "The Windermere ferry ran a reduced service.",
        [_STORM],
        False,
    ),
    (
        "the storm's right sentences beside them (0.7.42)",
        "By Monday evening about 8,000 homes were still without power, mostly in rural Cumbria.",
        [_STORM],
        True,
    ),
    (
        "'she said' after a speaker kept from her verb by a relative clause (right; 0.7.42)",
        "Lind said £25 million would be invested in new production lines in Wrexham over three years.",
        [_JOBS],
        True,
    ),
    (
        "'fell sharply to' an amount the page says was flat (0.7.42)",
        "Revenue fell sharply to £912 million.",
        [_JOBS],
        False,
    ),
    (
        "a difference where the study found none (0.7.42)",
        "Long commuters also reported lower job satisfaction.",
        [_COMMUTE],
        False,
    ),
    (
        "a count of deaths beside another count treated in hospital (right; 0.7.42)",
        "Three people died of heatstroke in Spain.",
        [_HEATWAVE],
        True,
    ),
    (
        "workers taken to hospital, said dead (0.7.42)",
        "Two farm workers died after collapsing in fields near Foggia.",
        [_HEATWAVE],
        False,
    ),
    (
        "a comparison kept the page's way round (right; 0.7.42)",
        "The heatwave was more intense in the south than in the north.",
        [_HEATWAVE],
        True,
    ),
    (
        "'no difference' as the page says it (right; 0.7.42)",
        "A study found no difference in heat deaths between cities with and without early-warning systems.",
        [_HEATWAVE],
        True,
    ),
    (
        "'ran normally' where the page says so (right; 0.7.42)",
        "The ferry between Algeciras and Tangier ran normally.",
        [_HEATWAVE],
        True,
    ),
    (
        "'almost all' as the page says it (right; 0.7.42)",
        "Almost all schools in Andalusia closed early for the summer.",
        [_HEATWAVE],
        True,
    ),
    (
        "an award the page denies of another, said of its winner (right; 0.7.42)",
        "Grant won the league's player of the year award.",
        [_CHESS],
        True,
    ),
    (
        "an award the page denies of her, said hers (0.7.42)",
        "Haddad won the league's player of the year award.",
        [_CHESS],
        False,
    ),
    (
        "'won their last three' where the page says did not win any (0.7.42; the article's headline, 'Chess club wins national title', would back it: 0.96)",
        "Riverside won their last three matches.",
        [_CHESS],
        False,
    ),
    (
        "'below' for the page's 'above', of the same subject and the same thing (0.7.43)",
        "City play two divisions below Rovers.",
        [_CUP],
        False,
    ),
    (
        "'won their last three' where the page says the same side lost three in a row (0.7.43)",
        "City have won their last three games.",
        [_CUP],
        False,
    ),
    (
        "'failed' where the page says it did not fail (a limit until 0.7.43: read as a negation)",
        "The grid failed under the demand.",
        [_HEATWAVE],
        False,
    ),
    (
        "the side that lost said to have won, another side's win beside it (0.7.43)",
        "Harbour Town won 3-1 against Millbrook on Saturday.",
        [_DERBY],
        False,
    ),
    (
        "'above' where the page says the same side sits below the same one (0.7.43)",
        "Millbrook sit two places above Harbour Town.",
        [_DERBY],
        False,
    ),
    (
        "seats said won where the sentence gives another party the wins (0.7.43)",
        "Labour won six seats in the council election.",
        [_ELECTION],
        False,
    ),
    (
        "a seat said won where the page says its holder, named before an apposition, lost it (0.7.43)",
        "Amy Roth won her seat in Eastfield.",
        [_ELECTION],
        False,
    ),
    (
        "backup servers said to fail where the page says they did not (0.7.43)",
        "The backup servers failed.",
        [_BOOKING],
        False,
    ),
    (
        "'has yet to drop a set' for the page's 'has not dropped a set', right (0.7.43; read as"
        " the claim's own 'drop' before)",
        "Brandt has yet to drop a set this week.",
        [
            "Second seed Maria Kovac beat Elena Ruiz in three sets. Brandt has not dropped a set this week."
        ],
        True,
    ),
    (
        "'has yet to' what the page says was done (0.7.43)",
        "Kovac has yet to reach a final this year.",
        ["Maria Kovac beat Elena Ruiz on Thursday to reach the final of the Lakeside Open."],
        False,
    ),
    (
        "the visitors' win, right (0.7.43)",
        "Millbrook won 3-1 at Harbour Town on Saturday.",
        [_DERBY],
        True,
    ),
    (
        "the home side's loss, right (0.7.43)",
        "Harbour Town lost to Millbrook on Saturday.",
        [_DERBY],
        True,
    ),
    (
        "'below' as the page says it, right (0.7.43)",
        "Millbrook sit two places below Harbour Town.",
        [_DERBY],
        True,
    ),
    (
        "a party's losses beside another's wins, right (0.7.43)",
        "Labour lost six seats in the council election.",
        [_ELECTION],
        True,
    ),
    (
        "a failure the page states, beside one it denies, right (0.7.43)",
        "The booking system failed twice in its first week.",
        [_BOOKING],
        True,
    ),
    (
        "'failed to test' read as not tested, right (0.7.43)",
        "The supplier did not test the software under load.",
        [_BOOKING],
        True,
    ),
    (
        "'lost to' where the page says the same player beat her opponent (0.7.44)",
        "Kovac lost to Ruiz on Saturday.",
        [_TENNIS],
        False,
    ),
    (
        "'was beaten by' where the page says she beat her (0.7.44)",
        "Kovac was beaten by Ruiz on Saturday.",
        [_TENNIS],
        False,
    ),
    (
        "the winner said beaten by the page's passive the other way round, right (0.7.44)",
        "Ruiz was beaten by Kovac on Saturday.",
        [_TENNIS],
        True,
    ),
]

# Written for this file in the shapes the README's list names (most from the probes described there,
# whose own texts are not kept), so that each line of that list can be rerun.
LIMITS: list[Case] = [
    # who did what to whom
    (
        "lowercase roles swapped",
        "When the contract ends, the customer has 60 days to return the provider's data.",
        ["When the contract ends, the provider has 60 days to return the customer's data."],
        False,
    ),
    (
        "two names swapped with four words between them",
        "Garcia narrowly defeated the two-time champion Okafor in the final.",
        ["Okafor narrowly defeated the two-time champion Garcia in the final on Saturday."],
        False,
    ),
    (
        "two parties of 'outbid' reversed",
        "An anonymous telephone bidder outbid the museum for the painting.",
        ["The museum outbid an anonymous telephone bidder for the painting, paying $2.1 million."],
        False,
    ),
    # one changed word that carries the meaning
    (
        "'vetoed' for 'supported'",
        "Mayor Jane Doe vetoed the measure.",
        ["Mayor Jane Doe supported the measure, which passed on Tuesday."],
        False,
    ),
    (
        "'hired' for 'laid off'",
        "The company hired 200 workers in March.",
        ["The company laid off 200 workers in March, citing weaker demand."],
        False,
    ),
    (
        "'resigned' for 'was fired'",
        "The chief executive resigned on Monday.",
        ["The board fired the chief executive on Monday after an internal review."],
        False,
    ),
    (
        "'compromised' where the page says 'not affected'",
        "Customer payment data was compromised in the breach.",
        [
            "Names and email addresses were exposed in the breach, the company said, but customer "
            "payment data was not affected."
        ],
        False,
    ),
    (
        "guidance 'lowered' where it was kept",
        "The company lowered its full-year guidance.",
        ["The company kept its full-year guidance unchanged despite weaker sales in the quarter."],
        False,
    ),
    # a plan, a hedge, an exception or a scope changed
    (
        "a share moved to a part",
        "Cloud revenue rose 12% in the quarter.",
        ["Total revenue rose 12% in the quarter, led by the cloud business."],
        False,
    ),
    (
        "a place moved inside a count",
        "The chain opened six stores in Sweden last year.",
        ["The chain opened six stores last year: four in Sweden and two in Finland."],
        False,
    ),
    (
        "top scorer for the second highest",
        "Ali was the team's top scorer with 14 goals.",
        ["Ali finished the season with 14 goals, second on the team behind Reyes."],
        False,
    ),
    (
        "a number asked for stated as given",
        "He was sentenced to eight years in prison.",
        ["Prosecutors asked for eight years in prison; sentencing is set for May."],
        False,
    ),
    (
        "two values swapped where the page writes both together",
        "Roast the chicken at 160°C, or at 180°C in a fan oven.",
        ["Roast the chicken at 180°C (160°C fan) for 90 minutes."],
        False,
    ),
    # every word on the page, each said of something else
    (
        "every word on the page, said of something else (Britten)",
        "Benjamin Britten was born in Germany.",
        [
            "Britten was born in Lowestoft in Suffolk.",
            "After the war, Britten and Yehudi Menuhin went to Germany to give recitals.",
        ],
        False,
    ),
    (
        "a year said of another tower, in other words",
        "The CN Tower was completed in 1889.",
        ["The Eiffel Tower opened in 1889. The CN Tower opened in 1976."],
        False,
    ),
    # a short claim whose one telling word the page does not say, outside "X is a <kind>"
    (
        "a short claim's one telling word not on the page",
        "The library lends tablets to students.",
        ["The library lends laptops to students for up to two weeks."],
        False,
    ),
    # a scope the page narrows for no one
    (
        "'only' where the page lists two plans",
        "Single sign-on is only available on the Enterprise plan.",
        ["Single sign-on is available on the Pro and Enterprise plans. Audit logs are too."],
        False,
    ),
    # a probe of six help pages written after engine 0.7.35's rules (warranty, gym, hotel,
    # library, data retention, insurance): 10 of its 29 claims judged otherwise than a person would,
    # two of which 0.7.35 then mended and four 0.7.36 (now among the known cases)
    (
        "a feature of the other membership, with no number to tell them apart",
        "Standard membership includes the pool.",
        [
            "Standard membership costs $39 per month and includes access to the gym floor and "
            "group classes. Premium membership costs $59 per month and adds the pool, sauna and "
            "two guest passes per month."
        ],
        False,
    ),
    (
        "an hour the page gives early check-in, said of check-out",
        "Check-out is at 12 p.m.",
        [
            "Check-in starts at 3 p.m. and check-out is at 11 a.m. Early check-in from 12 p.m. is "
            "available for a $25 fee, subject to availability."
        ],
        False,
    ),
    (
        "a fee the page gives books, said of DVDs",
        "Late fees for DVDs are 25 cents per day.",
        [
            "DVDs are lent for 1 week and cannot be renewed. Late fees are 25 cents per day for "
            "books."
        ],
        False,
    ),
    # two probes of help pages written this session, before 0.7.36's rules and after them (car
    # hire, admissions, an API's limits, a museum, a leaflet, rail tickets; a bank, a car park,
    # coworking, a vet, phone plans, school lunches): 11 of 37 and 11 of 38 judged otherwise than
    # a person would, as first run
    (
        "a price the page gives other drivers, said of spouses it lets drive free",
        "Spouses pay $12 per day as additional drivers.",
        [
            "One additional driver is included free of charge for spouses. Other additional "
            "drivers cost $12 per day each."
        ],
        False,
    ),
    (
        "where the page sends bags, said of umbrellas it lets in",
        "Umbrellas must be left in the cloakroom.",
        [
            "Large bags and backpacks must be left in the free cloakroom. Umbrellas may be taken "
            "into the galleries."
        ],
        False,
    ),
    (
        "what one group pays, said of another told apart by its ages",
        "Children aged 5 to 15 travel free.",
        ["Children aged 5 to 15 travel for half price. Children under 5 travel free."],
        False,
    ),
    (
        "'any train' the page gives another ticket",
        "Off-peak tickets are valid on any train.",
        [
            "Off-peak tickets are valid on trains departing after 9:30 am on weekdays. Anytime "
            "tickets are valid on any train."
        ],
        False,
    ),
    (
        "'every level' where the page says one level only",
        "Electric vehicle charging is available on every level.",
        [
            "Electric vehicle charging is available on level 2 only. Motorcycles park free on level 1."
        ],
        False,
    ),
    (
        "a price the other clause of one sentence gives another tier",
        "Meeting rooms cost $20 per hour for dedicated desk members.",
        [
            "Meeting rooms cost $20 per hour for hot desk members; dedicated desk members get 5 "
            "free hours each month."
        ],
        False,
    ),
    (
        "what one plan's sentence says of texts, said of calls the other plan's gives",
        "The Basic plan includes unlimited calls.",
        [
            "The Basic plan includes 5 GB of data, unlimited texts and 300 minutes of calls. The "
            "Plus plan includes 20 GB of data and unlimited calls and texts."
        ],
        False,
    ),
    (
        "an age inside the range the page gives (right)",
        "Drivers aged 22 pay a young driver surcharge of $25 per day.",
        [
            "Drivers must be at least 21 years old to rent a car. Drivers aged 21 to 24 pay a "
            "young driver surcharge of $25 per day."
        ],
        True,
    ),
    (
        "a count with words between it and its unit (right)",
        "Dedicated desk members get 5 free meeting room hours each month.",
        [
            "Meeting rooms cost $20 per hour for hot desk members; dedicated desk members get 5 "
            "free hours each month."
        ],
        True,
    ),
    # other languages, and what is not checked
    (
        "a negation in Chinese",
        "即使是用非原装充电器造成的损坏，也可以享受保修。",
        ["使用非原装充电器造成的损坏不在保修范围内。"],
        False,
    ),
    (
        "a step with no occasion, place or name is not checked",
        "Use the import tool to back up your data.",
        ["To back up your data, use the export tool in Settings."],
        False,
    ),
    # right answers failed on a paraphrase
    (
        "'Oscars' for Academy Awards (right)",
        "The film won four Oscars.",
        ["The film won four Academy Awards, including Best Picture."],
        True,
    ),
    (
        "'Sudamérica' for 'América del Sur' (right)",
        "El Amazonas es el río más largo de Sudamérica.",
        ["El Amazonas es el río más largo de América del Sur."],
        True,
    ),
    # news articles summarised (the session's two news probes, 0.7.37): still passing
    (
        "'cocoa and coffee' for the page's 'cocoa and sugar'",
        "Mira Patel blamed higher prices for cocoa and coffee.",
        [
            "Chief executive Mira Patel blamed higher prices for cocoa and sugar, and said the "
            "company would raise prices on its chocolate bars by about 6% in the autumn."
        ],
        False,
    ),
    (
        "'heavy' winter snowfall for the page's 'low'",
        "The losses were driven mainly by heavy winter snowfall.",
        ["They said the losses were driven mainly by hot summers and low winter snowfall."],
        False,
    ),
    (
        "the record's margin given as the runner-up's",
        "Grace Wanjiru finished second, 41 seconds behind Moreno.",
        [
            "Alicia Moreno won in 2 hours 24 minutes, breaking the course record by 41 seconds. "
            "Kenyan runner Grace Wanjiru was second, 18 seconds behind."
        ],
        False,
    ),
    (
        "a year of the sentence's other verb",
        "She was appointed a Fellow of the Royal Society in 2015.",
        ["She was appointed a Fellow of the Royal Society in 2006 and retired in 2015."],
        False,
    ),
    (
        "'accepted' where the page says 'offered'",
        "The union has accepted a 3% raise.",
        ["The union says drivers have been offered a 3% raise, well below inflation of 5.2%."],
        False,
    ),
    (
        "'levelled off' said as 'stopped growing' (right)",
        "The benefit stopped growing above about 10,000 steps.",
        ["The benefit levelled off above 10,000 steps, the researchers said."],
        True,
    ),
    (
        "the state's attorney general for the page's industry group",
        "The injunction was requested by the Colorado Attorney General.",
        [
            "Judge Maria Lopez granted a preliminary injunction requested by NetChoice, a tech "
            "industry group. Colorado Attorney General Phil Weiser said his office would appeal."
        ],
        False,
    ),
    (
        "'permanent' for the page's 'preliminary'",
        "Judge Lopez granted a permanent injunction.",
        [
            "Judge Maria Lopez said the law likely violated the First Amendment and granted a "
            "preliminary injunction requested by NetChoice."
        ],
        False,
    ),
    (
        "'scored twice before half-time' said as two goals in the first half (right)",
        "Jonah Mills scored two goals in the first half.",
        [
            "Striker Jonah Mills scored twice before half-time, and defender Luis Prado added a "
            "third with a header in the 70th minute."
        ],
        True,
    ),
    # Wikipedia-style claims against the articles they cite (the 0.7.38 probe)
    (
        "'resigned' for the page's 'sacked'",
        "Van Leeuwen replaced Gary Holt, who resigned after seven defeats in nine matches.",
        [
            "Harbour City Rovers have appointed Pieter van Leeuwen as their new head coach. The "
            "47-year-old replaces Gary Holt, who was sacked last month after a run of seven "
            "defeats in nine matches left the side 14th in the table."
        ],
        False,
    ),
    (
        "'a striker' for the page's 'a defender'",
        "As a player, van Leeuwen made 212 appearances as a striker for Utrecht.",
        [
            "Van Leeuwen spent the past three seasons at Dordrecht. As a player he made 212 "
            "appearances as a defender for Utrecht and won two caps for the Netherlands."
        ],
        False,
    ),
    (
        "a year the page gives the sentence's other verb",
        "Lin became head of the department of materials at Westbridge in 2012.",
        [
            "She joined Westbridge in 2012 from Tsinghua University, where she completed her PhD, "
            "and became head of the department of materials in 2019."
        ],
        False,
    ),
    (
        "survived by a wife the page says died",
        "He is survived by his wife, the singer Alma Whitfield, and his daughter Renee.",
        [
            "He is survived by his daughter, Renee, and two grandsons; his wife, the singer Alma "
            "Whitfield, died in 2018."
        ],
        False,
    ),
    (
        "'founded on her own' where she co-founded",
        "Lin founded Voltaic on her own in 2020.",
        [
            "The technology has been licensed to Voltaic, a spin-out company she co-founded in "
            "2020, which raised 40 million dollars last year."
        ],
        False,
    ),
    (
        "buyer and seller of 'bought … from' reversed",
        "The city bought the silo from the pension fund PKA in 2018.",
        [
            "The building's owner, the pension fund PKA, bought the silo from the city in 2018 "
            "for 25 million kroner."
        ],
        False,
    ),
    (
        "what the page's speaker said was found, said as found by him",
        "Councillor Peter Grange found corrosion in the iron girders in 2023.",
        [
            "Councillor Peter Grange, who is responsible for highways, said inspections in 2023 "
            "had found corrosion in the iron girders."
        ],
        False,
    ),
    (
        "a year two clauses away, given the sentence's other verb",
        "Brandt and his wife emigrated to Switzerland in 1933.",
        [
            "He was dismissed in 1933 because his wife, Ilse, was Jewish, and the couple "
            "emigrated to Switzerland in 1936."
        ],
        False,
    ),
    # Wikipedia-style claims against the articles they cite (the 0.7.39 probes)
    (
        "the whole cost said paid by who pays part of it",
        "The Department for Transport will pay the full 38 million pound cost of the repairs.",
        [
            "The repairs are expected to cost 38 million pounds, of which the Department for "
            "Transport will pay 30 million."
        ],
        False,
    ),
    (
        "a debut given the house of a later role",
        "She made her debut at Covent Garden in 1976.",
        [
            "She studied at the Conservatoire de Paris and made her debut at the Opéra de Lyon in "
            "1976 as Cherubino. Her international career began in 1981, when she replaced an "
            "ailing Frederica von Stade as Mélisande at Covent Garden."
        ],
        False,
    ),
    (
        "'their divorce' for 'his death', the rest of the sentence the page's",
        "She was married to the conductor Alain Vidal from 1979 until their divorce in 2011.",
        [
            "She was married to the conductor Alain Vidal from 1979 until his death in 2011; they "
            "had two sons."
        ],
        False,
    ),
    (
        "'away at' for the page's 'at home to'",
        "In 1952 they reached the FA Cup first round, losing 3-1 away at Grimsby Town.",
        [
            "Ashgrove reached the first round proper of the FA Cup for the first time in 1952, "
            "losing 3-1 at home to Grimsby Town in front of a record crowd of 7,850."
        ],
        False,
    ),
    (
        "a release date the page gives two of three platforms",
        "It was released for Windows, Nintendo Switch and PlayStation 5 in March 2021.",
        [
            "It was released for Windows and Nintendo Switch in March 2021, and for PlayStation 5 "
            "in October 2021."
        ],
        False,
    ),
    (
        "a soundtrack the page says another composed (one common word after the verb)",
        "Sofie Lund also composed the game's soundtrack.",
        [
            "The game was directed by Sofie Lund, who had previously worked as an animator at IO "
            "Interactive. Its soundtrack was composed by Jonas Brink."
        ],
        False,
    ),
    # News articles summarised as a summariser does (the 0.7.40 probes)
    (
        "'significantly less' where the page says not statistically significant",
        "Exposed worker bees collected significantly less pollen.",
        [_BEES],
        False,
    ),
    (
        "a return to profit given the date of the repairs",
        "Ingrid Solberg said the company would return to profit by the end of next year.",
        [_NORDLYS],
        False,
    ),
    (
        "'mostly in Norway' where the page says mostly in Denmark",
        "The company will cut 600 jobs, mostly in Norway.",
        [_NORDLYS],
        False,
    ),
    (
        "'found guilty after a trial' where she pleaded guilty",
        "She was found guilty of fraud by abuse of position after a trial at Winchester Crown "
        "Court.",
        [_FRAUD],
        False,
    ),
    (
        "'most of the money' where £90,000 of £480,000 was recovered",
        "The trust has recovered most of the money.",
        [_FRAUD],
        False,
    ),
    (
        "the prison sentence's years given to the theft",
        "Marsh stole the money over three years.",
        [_FRAUD],
        False,
    ),
    (
        "a criticism the page gives another group",
        "Environmental campaigners criticised the plan for being rushed through without "
        "consultation.",
        [_MARREN],
        False,
    ),
    (
        "injured where the page says the same workers were killed",
        "Three workers were injured in the explosion.",
        ["The explosion killed three workers and injured 12 others."],
        False,
    ),
    (
        "a finding not shown, said shown, beside another study's",
        "Earlier trials showed that the drug was effective.",
        [
            "Earlier trials did not show that the drug was effective, but a 2020 study found "
            "that it reduced symptoms by 30%."
        ],
        False,
    ),
    (
        "a count of reports given the other reports' harm",
        "The company has received 46 reports of serious burns.",
        [
            "The company said it had received 46 reports of cracked handles and three of minor "
            "burns, but no serious injuries."
        ],
        False,
    ),
    (
        "'only online' where the page says by supermarkets and online",
        "The kettles were sold only online.",
        [
            "Kitchenware maker Brenna Home is recalling 80,000 electric kettles sold in the UK and "
            "Ireland after reports that the handles can crack when the kettle is full. The "
            "affected KX200 model was sold between March 2024 and June 2025 by supermarkets and "
            "online. Customers should stop using the kettle and will receive a full refund or a "
            "replacement."
        ],
        False,
    ),
    (
        "an adaptation announced, said made",
        "It was adapted for television by the BBC in 2021.",
        ["A television adaptation by the BBC was announced in 2021 but has not been made."],
        False,
    ),
    (
        "'died' where the child was taken to hospital",
        "A two-year-old child living in one of the flats died of breathing problems.",
        [_LANDLORD],
        False,
    ),
    (
        "a cause the page does not state",
        "The court heard that the child's breathing problems were caused by the mould.",
        [_LANDLORD],
        False,
    ),
    (
        "'double' for 150 to 230",
        "The council issued 230 improvement notices last year, double the number of the year before.",
        [_LANDLORD],
        False,
    ),
    (
        "pilots for cabin crew",
        "Pilots at SkyNorth will strike for four days over Easter.",
        [_STRIKE],
        False,
    ),
    (
        "the airline's offer given the union",
        "The union is demanding a 4% pay rise.",
        [_STRIKE],
        False,
    ),
    (
        "the baggage handlers' strike given the cabin crew",
        "Last summer a strike by SkyNorth's cabin crew at Glasgow led to 140 cancellations.",
        [_STRIKE],
        False,
    ),
    (
        "a place of the sentence's other verb",
        "Jones trained in Naples under Richard Wilson.",
        [_MUSEUM],
        False,
    ),
    (
        "half a point for a quarter",
        "Three members wanted a cut of half a percentage point.",
        [_RATES],
        False,
    ),
    (
        "'a third more' for 'a third fewer'",
        "The route carried 410,000 passengers last year, a third more than in 2019.",
        [_FERRY],
        False,
    ),
    (
        "'at a record' for 'just below the record'",
        "The river peaked at a record 6.2 metres.",
        [_FLOOD],
        False,
    ),
    (
        "'found guilty' where the jury cleared her",
        "Lauren Pike was found guilty of assaulting three children.",
        [_COURT],
        False,
    ),
    (
        "the mother's name given the calf",
        "The calf has been named Zuri.",
        [_ZOO],
        False,
    ),
    (
        "the school's pupils given the sixth form",
        "About 1,100 pupils attend the school's sixth form.",
        [_SCHOOL],
        False,
    ),
    (
        "a place the page gives the other library's visits",
        "A mobile library will visit Milton Road twice a week.",
        [_LIBRARIES],
        False,
    ),
    (
        "a judicial review the page says campaigners would seek, said won",
        "Campaigners have already won a judicial review.",
        [_LIBRARIES],
        False,
    ),
    (
        "approval the page says the maker would apply for, said received",
        "Corvane Pharma has already received approval in the US.",
        [_MIGRAINE],
        False,
    ),
    (
        "'who led the study' where the page says she was not involved",
        "Dr Helen Marsh, who led the study, called the benefit real but modest.",
        [_MIGRAINE],
        False,
    ),
    (
        "'all customers reconnected' where all but 8,000 homes were",
        "All customers were reconnected by Monday evening.",
        [_STORM],
        False,
    ),
    (
        "an amber warning for the page's red one",
        "The Met Office issued an amber warning for wind.",
        [_STORM],
        False,
    ),
    (
        "signatures said as people who signed (right)",
        "Their petition was signed by 11,000 people.",
        [_LIBRARIES],
        True,
    ),
    (
        "'almost twice the placebo rate' for 38% against 21% (right)",
        "Around 38% of patients on the drug halved their migraine days, almost twice the placebo rate.",
        [_MIGRAINE],
        True,
    ),
    (
        "a business the page says the company plans to sell, said bought",
        "The company plans to buy a German business by the end of next year.",
        [_JOBS],
        False,
    ),
    (
        "most of the jobs placed at the office the page gives 40 of them",
        "Most of the jobs will go at the Leeds head office.",
        [_JOBS],
        False,
    ),
    (
        "the scorer of the winning penalty said to have given it away",
        "Kofi Mensah handled in the area, giving City a penalty.",
        [_CUP],
        False,
    ),
    (
        "a link said to disappear where the page says it held",
        "The link disappeared once age, income and working hours were taken into account.",
        [_COMMUTE],
        False,
    ),
    (
        "two lowercase things compared the other way round, with 'than'",
        "Northgate spends more on travel than on coaching.",
        [_CHESS],
        False,
    ),
    (
        "a win given the loser of a relative clause ('Brandt, who beat her')",
        "Kovac beat Brandt in last year's final.",
        [_TENNIS],
        False,
    ),
    (
        "a gain where 'The company' lost (the company not read as its name)",
        "Norvik gained 20,000 mobile subscribers in the quarter.",
        [_TELECOM],
        False,
    ),
    (
        "what the chief executive said, said by the company, right",
        "Norvik said prices would go up by 5% in January.",
        [_TELECOM],
        True,
    ),
    (
        "a prize the page gives the next album a year later",
        "The band won the Mercury Prize in 2004 for their second album, Low Tide.",
        [
            "Their second album, Low Tide, was released in 2004. Low Tide was shortlisted for "
            "the Mercury Prize in 2004 but lost to another nominee. A year later their third "
            "album won the Mercury Prize."
        ],
        False,
    ),
]


# Run once on 0.7.43 and 0.7.44 before anything was mended from it: 10 of 24 judged wrongly by
# both (sentence AUC 0.535); 0.7.44 then read its "Not returning an access fob" (15 of 24).
# Kept as written, so a later engine can be read against that.
HELD: list[Case] = [
    (
        "paraphrase of the opening paragraph: approved, 42 flats, more than 60 objectors",
        "Harwick District Council's planning committee gave the go-ahead for the disused Albion "
        "Mill to be turned into 42 flats, even though over 60 residents had objected.",
        [_MILL],
        True,
    ),
    (
        "roles swapped: Okafor chairs the committee; it was Dennis Hale, the ward councillor, who"
        " voted against over Mill Lane traffic",
        "Councillor Ruth Okafor, who represents the ward, voted against the plan, warning that "
        "the car park would increase traffic on Mill Lane.",
        [_MILL],
        False,
    ),
    (
        "wrong number taken from elsewhere in the article: the car park has 38 spaces; 42 is the "
        "number of flats",
        "The new car park replacing the rear loading sheds will have 42 spaces over two storeys.",
        [_MILL],
        False,
    ),
    (
        "nine affordable flats versus the 12 expected; the council's independent assessor agreed "
        "with the developer's viability argument",
        "The development will include fewer affordable homes than council policy normally "
        "expects, because an independent assessor accepted that the cost of repairing the listed "
        "chimney made a higher number unviable.",
        [_MILL],
        True,
    ),
    (
        "wrong cause: Hale's stated reason was that the car park would push more traffic onto "
        "Mill Lane; affordable housing is not given as his reason",
        "Councillor Dennis Hale opposed the scheme because it would provide fewer affordable "
        "flats than council policy expects.",
        [_MILL],
        False,
    ),
    (
        "stated directly: a condition requires a bat survey before demolition starts",
        "Under a condition of the permission, a bat survey must be carried out before any "
        "demolition begins.",
        [_MILL],
        True,
    ),
    (
        "hedge stated as fact: Northgate only hoped to begin next spring, subject to the survey, "
        "with residents possibly moving in by late 2027",
        "Work on the mill will start next spring, and the first residents will move in by late "
        "2027.",
        [_MILL],
        False,
    ),
    (
        "okafor, the chair, said it had been empty for almost two decades",
        "The committee chair remarked that the building had been standing empty for nearly twenty"
        " years.",
        [_MILL],
        True,
    ),
    (
        "wrong date taken from elsewhere: she completed the doctorate in 1893; 1895 is when "
        "Hungarian universities began admitting women",
        "Varga earned her doctorate in Zurich in 1895, with a thesis on the acidity of wood-pulp "
        "paper.",
        [_VARGA],
        False,
    ),
    (
        "paraphrase: she studied in Zurich because Hungarian universities did not admit women "
        "until 1895",
        "She went to Zurich to study chemistry because Hungarian universities did not yet accept "
        "women students.",
        [_VARGA],
        True,
    ),
    (
        "entities swapped: the director was Ferenc Koszorús; Albisser was her doctoral supervisor",
        "In 1905 she was invited to examine the library's deteriorating newspaper collections by "
        "its director, Heinrich Albisser.",
        [_VARGA],
        False,
    ),
    (
        "paraphrase of the report's finding in the third paragraph",
        "Her 1907 report found that paper produced after roughly 1850 was deteriorating much more"
        " quickly than older rag paper.",
        [_VARGA],
        True,
    ),
    (
        "overstatement: it was only among the first, and a similar unit had opened in Vienna two "
        "years earlier",
        "The conservation laboratory she founded in 1909 was the first of its kind in Central "
        "Europe.",
        [_VARGA],
        False,
    ),
    (
        "stated directly in the second paragraph",
        "On returning to Hungary, she spent eleven years teaching at a girls' secondary school in"
        " Budapest.",
        [_VARGA],
        True,
    ),
    (
        "the report recommended cooler, darker storage; alkaline washing appears only in her "
        "unpublished notebooks, as experiments she may have begun",
        "Her 1907 report recommended washing newer paper in alkaline solutions to slow its decay.",
        [_VARGA],
        False,
    ),
    (
        "stated in the last paragraph",
        "After retiring in 1926, she devoted her final years to translating German chemistry "
        "textbooks into Hungarian.",
        [_VARGA],
        True,
    ),
    (
        "paraphrase: upgrades are immediate and the difference is charged pro rata for the rest "
        "of the month",
        "Switching to a larger unit takes effect straight away, with the extra cost charged "
        "proportionally for the remainder of the billing month.",
        [_STORAGE],
        True,
    ),
    (
        "wrong number from elsewhere: the late fee applies after 10 days; 14 days is when gate "
        "access is suspended",
        "A £20 late fee is added if a payment is still outstanding 14 days after the due date.",
        [_STORAGE],
        False,
    ),
    (
        "meaning flipped: downgrades take effect from the next billing date and the current "
        "month's difference is not refunded",
        "Downgrading to a smaller unit takes effect immediately, and the difference for the "
        "current month is refunded.",
        [_STORAGE],
        False,
    ),
    (
        "14 days' notice through the app or the site office",
        "To end a rental, customers must give at least two weeks' notice, either in the app or at"
        " the site office.",
        [_STORAGE],
        True,
    ),
    (
        "added detail: the retry after 3 days is stated, but no email notification is mentioned",
        "If a payment fails, Keepwell retries it after 3 days and notifies the customer by email.",
        [_STORAGE],
        False,
    ),
    (
        "stated: a replacement costs £15 and an unreturned fob is charged at the same rate",
        "Not returning an access fob when moving out costs £15, the same as a replacement fob.",
        [_STORAGE],
        True,
    ),
    (
        "overgeneralisation: only some sites offer it; customers are told to check their site page",
        "All Keepwell sites offer 24-hour access for an extra £8 a month.",
        [_STORAGE],
        False,
    ),
    (
        "paraphrase of the access hours, with 25 December given as Christmas Day",
        "Sites are open from 6 am to 10 pm every day except Christmas Day, when all of them close.",
        [_STORAGE],
        True,
    ),
]


# 0.7.45's held probe, written by another hand that saw no code, tests or cases, and run once on
# 0.7.44 and 0.7.45 before anything was read from it: three documents of the kind a RAG chatbot
# retrieves, in chunks (an HR leave policy, a database's release notes, a drug trial explained),
# and ten answer sentences about each, half wrong. Its right sentences paraphrase and infer ("six
# years of service" from "after five years… after ten years"), its wrong ones take a number, a
# name or a condition from another part of the page. Both engines judged 21 of 30 wrongly,
# sentence AUC 0.209 (lowest claim of each sentence): below chance. Kept as written.

# Document A: internal HR / employee-benefits policy.
_HARLOW = [
    "Harlow Freight Ltd - Leave and Allowances Policy (revision 4, effective 1 March 2024). "
    "This policy applies to all permanent and fixed-term employees of Harlow Freight Ltd "
    "in the United Kingdom. Agency workers and independent contractors are not covered by "
    "this policy and should refer to the terms of their own agreements. Questions about the "
    "policy should be directed to the People Operations team, led by Director of People "
    "Sandra Okafor.",
    "Full-time employees receive 25 days of paid annual leave per holiday year, in addition "
    "to the eight UK bank holidays. After five years of continuous service the entitlement "
    "rises to 27 days, and after ten years it rises to 28 days. Part-time employees receive "
    "a pro-rata entitlement calculated on their contracted hours. Up to 5 unused days may be "
    "carried over into the next holiday year, but carried-over days must be taken by 31 May "
    "or they are lost. Requests for more than 10 consecutive working days of leave must be "
    "approved by the employee's department head rather than their line manager.",
    "Employees with at least 26 weeks of continuous service by the 15th week before the "
    "expected due date qualify for enhanced maternity pay: 16 weeks at full salary, followed "
    "by 10 weeks at half salary, and then statutory pay for the remainder of the leave. "
    "Enhanced paternity pay of 4 weeks at full salary is available on the same service "
    "condition; employees who do not meet it receive the statutory two weeks of paternity "
    "pay. Compassionate leave of up to 5 paid days is granted on the death of a close family "
    "member, and line managers may approve up to 3 additional unpaid days. Fixed-term "
    "employees on contracts shorter than 12 months are not eligible for enhanced maternity "
    "or paternity pay.",
    "Employees who work from home at least two days a week receive a home-working allowance "
    "of \u00a326 per month, paid through payroll. A one-off equipment allowance of up to "
    "\u00a3300 is available to new starters, claimable within their first 90 days. Claims "
    "above \u00a3300 require sign-off from the Finance Controller, Marcus Bell, and are only "
    "approved where a medical or accessibility need has been documented by Occupational "
    "Health. The People Operations team is reviewing a proposal to raise the home-working "
    "allowance to \u00a335 per month from April 2025; no decision has been made.",
]

# Document B: product technical documentation / release notes.
_TESSERA = [
    "Tessera 3.2 release notes (released 14 October 2024). Tessera 3.2 raises the maximum "
    "document size from 16 MB to 32 MB; the 16 MB limit still applies to clusters running in "
    "compatibility mode with 3.0 nodes. The default query timeout has changed from 30 seconds "
    "to 60 seconds, but only for new installations; upgraded deployments keep their existing "
    "configured value. The release was coordinated by release manager Priya Raman, and the "
    "new storage engine was designed by lead engineer Tomas Lindqvist.",
    "Tessera 3.2 is supported on Linux (x86-64 and ARM64) and on macOS 13 or later for "
    "development use only. Native Windows builds are no longer published; Windows users "
    "should run Tessera under WSL2. On Linux, the server uses io_uring for disk access when "
    "running on kernel 5.15 or newer and falls back to a thread-pool backend on older "
    "kernels. The io_uring backend is not available on macOS.",
    "The --legacy-auth flag is deprecated in 3.2 and will be removed in 4.0; it still works "
    "in 3.2 but logs a warning at startup. The tessera-export tool has been replaced by the "
    "tessera dump subcommand, and tessera-export was removed entirely in this release. "
    "Support for TLS 1.1 was dropped; TLS 1.2 is now the minimum, and TLS 1.3 is used by "
    "default when both sides support it.",
    "Each database may contain up to 4,096 collections, and each collection up to 64 "
    "secondary indexes. Online index rebuilds, previously an Enterprise-only feature, are "
    "now available in the Community edition as well, although they are limited to one "
    "concurrent rebuild per node in Community versus four in Enterprise. A known issue causes "
    "the replication lag metric to report zero on ARM64 nodes; a fix is planned for 3.2.1. "
    "Upgrading directly from 2.x to 3.2 is not supported; clusters must first upgrade to 3.0.",
]

# Document C: scientific / medical explainer of a trial.
_VESTA = [
    "The VESTA trial, led by principal investigator Dr. Helen Marsh of the University of "
    "Leeds, tested whether the drug colvaprine could reduce migraine frequency in adults with "
    "chronic migraine. The trial's statistical analysis was overseen by Dr. Rafael Ortiz, who "
    "was not involved in recruiting patients. Between March 2021 and June 2022, 612 adults "
    "aged 18 to 65 were enrolled at 14 hospitals in the United Kingdom and Ireland.",
    "Participants were randomly assigned to one of three arms: 25 mg of colvaprine daily, "
    "50 mg daily, or a matching placebo, and were treated for 24 weeks. At the start of the "
    "trial, participants reported an average of 16 migraine days per month. By week 24, "
    "migraine days fell by an average of 5.8 days per month in the 50 mg group, 4.1 days in "
    "the 25 mg group and 2.9 days in the placebo group. Only the difference between the "
    "50 mg group and placebo was statistically significant.",
    "Side effects were more common at the higher dose. Dizziness was reported by 18% of "
    "participants in the 50 mg group, compared with 9% in the 25 mg group and 6% in the "
    "placebo group. Eleven participants in the 50 mg group stopped treatment because of side "
    "effects, compared with four in the 25 mg group. No serious liver problems were seen in "
    "any group, although the trial was not large enough to detect rare adverse events.",
    "The researchers caution that the trial did not include people over 65 or people who "
    "were pregnant, so the results cannot be applied to these groups. The trial also did not "
    "compare colvaprine with existing preventive treatments such as topiramate. A longer "
    "follow-up study, lasting 52 weeks, is being planned but has not yet begun recruiting. "
    "The trial was funded by the UK National Institute for Health Research, not by the "
    "drug's manufacturer.",
]

HELD10: list[Case] = [
    # ---------------- Document A (HR policy) ----------------
    (
        "27 days applies after five years (28 only after ten); six years -> 27 plus bank hols",
        "A full-time Harlow Freight employee with six years of continuous service is entitled "
        "to 27 days of paid annual leave on top of bank holidays.",
        _HARLOW,
        True,
    ),
    (
        "paraphrase of carry-over rule: up to 5 days, lost if not taken by 31 May",
        "Harlow Freight staff may roll up to five untaken leave days into the next holiday "
        "year, but any of those days still unused at the end of May are forfeited.",
        _HARLOW,
        True,
    ),
    (
        "three weeks = 15 working days > 10, so department head must approve",
        "At Harlow Freight, a request for three consecutive weeks of leave needs sign-off "
        "from the employee's department head rather than the line manager.",
        _HARLOW,
        True,
    ),
    (
        "enhanced maternity pay: 16 weeks full salary then 10 weeks half salary",
        "Eligible Harlow Freight employees on maternity leave are paid in full for the first "
        "16 weeks and at 50% of salary for the next 10 weeks.",
        _HARLOW,
        True,
    ),
    (
        "doc says agency workers and contractors are not covered; refer to own agreements",
        "Harlow Freight's leave and allowances policy does not apply to agency workers or "
        "independent contractors, whose terms come from their own agreements.",
        _HARLOW,
        True,
    ),
    (
        "condition dropped: enhanced paternity pay needs 26 weeks' service (else statutory)",
        "Harlow Freight employees receive 4 weeks of paternity pay at full salary regardless "
        "of how long they have worked for the company.",
        _HARLOW,
        False,
    ),
    (
        "wrong person: claims above 300 pounds are signed off by Finance Controller Marcus Bell",
        "At Harlow Freight, equipment claims above \u00a3300 must be signed off by Director "
        "of People Sandra Okafor.",
        _HARLOW,
        False,
    ),
    (
        "proposal stated as done: raise to 35 pounds is only under review, no decision made",
        "Harlow Freight raised its home-working allowance from \u00a326 to \u00a335 per month "
        "in April 2025.",
        _HARLOW,
        False,
    ),
    (
        "the 3 extra compassionate days are unpaid, not paid",
        "Harlow Freight grants up to 5 paid days of compassionate leave, and line managers "
        "can approve 3 further paid days on top of that.",
        _HARLOW,
        False,
    ),
    (
        "number mixed: 28 days comes after ten years; five years gives 27",
        "Harlow Freight employees reach the maximum annual leave entitlement of 28 days after "
        "five years of continuous service.",
        _HARLOW,
        False,
    ),
    # ---------------- Document B (release notes) ----------------
    (
        "32 MB is double 16 MB; compatibility-mode exception preserved",
        "Tessera 3.2 doubles the maximum document size to 32 MB, except on clusters running "
        "in compatibility mode with 3.0 nodes, where 16 MB still applies.",
        _TESSERA,
        True,
    ),
    (
        "direct 2.x -> 3.2 upgrade unsupported; must go to 3.0 first",
        "Teams still on Tessera 2.x must move to version 3.0 before they can upgrade to 3.2, "
        "because a direct jump is not supported.",
        _TESSERA,
        True,
    ),
    (
        "native Windows builds no longer published; Windows users should use WSL2",
        "Because Tessera 3.2 no longer ships native Windows builds, Windows users are told to "
        "run it inside WSL2.",
        _TESSERA,
        True,
    ),
    (
        "legacy-auth: deprecated, still works, logs warning at startup, removed in 4.0",
        "Tessera 3.2 still accepts the --legacy-auth flag, though it prints a warning when the "
        "server starts and the flag is scheduled for removal in version 4.0.",
        _TESSERA,
        True,
    ),
    (
        "online rebuilds now in Community, 1 concurrent per node vs 4 in Enterprise",
        "The Community edition of Tessera 3.2 can run online index rebuilds, but only one at "
        "a time per node, whereas Enterprise allows up to four.",
        _TESSERA,
        True,
    ),
    (
        "exception dropped: 60 s default is only for new installs; upgrades keep their value",
        "Tessera 3.2 changes the default query timeout to 60 seconds for every deployment, "
        "including upgraded ones.",
        _TESSERA,
        False,
    ),
    (
        "mixed with --legacy-auth: tessera-export was removed entirely in 3.2, not deprecated",
        "The tessera-export tool is deprecated in Tessera 3.2 and will be removed in version 4.0.",
        _TESSERA,
        False,
    ),
    (
        "platform mix: io_uring is Linux-only (kernel 5.15+), not available on macOS",
        "On macOS 13 or later, Tessera 3.2 uses the io_uring backend for disk access.",
        _TESSERA,
        False,
    ),
    (
        "plan stated as done: ARM64 replication-lag fix is only planned for 3.2.1",
        "The bug that made the replication lag metric read zero on ARM64 nodes was fixed in "
        "Tessera 3.2.1.",
        _TESSERA,
        False,
    ),
    (
        "roles swapped: storage engine designed by lead engineer Tomas Lindqvist",
        "The new storage engine in Tessera 3.2 was designed by release manager Priya Raman.",
        _TESSERA,
        False,
    ),
    # ---------------- Document C (trial explainer) ----------------
    (
        "paraphrase of enrolment: 612 adults aged 18-65, 14 hospitals, UK and Ireland",
        "Six hundred and twelve adults between 18 and 65 years old took part in the VESTA "
        "trial, recruited through 14 hospitals in the United Kingdom and Ireland.",
        _VESTA,
        True,
    ),
    (
        "18% vs 9% dizziness is exactly double",
        "In the VESTA trial, dizziness was reported twice as often on 50 mg of colvaprine as "
        "on 25 mg (18% versus 9% of participants).",
        _VESTA,
        True,
    ),
    (
        "only 50 mg vs placebo difference was statistically significant",
        "Of the two colvaprine doses tested in VESTA, only the 50 mg daily dose produced a "
        "statistically significant reduction in migraine days compared with placebo.",
        _VESTA,
        True,
    ),
    (
        "funded by UK NIHR, not the manufacturer",
        "The VESTA trial was paid for by the UK National Institute for Health Research rather "
        "than by the company that makes colvaprine.",
        _VESTA,
        True,
    ),
    (
        "trial did not compare colvaprine with existing preventives such as topiramate",
        "The VESTA trial cannot show how colvaprine performs against topiramate, because the "
        "two treatments were never compared in the study.",
        _VESTA,
        True,
    ),
    (
        "number from another arm: 4.1 days was the 25 mg group; 50 mg fell by 5.8",
        "In the VESTA trial, migraine days fell by an average of 4.1 per month in the 50 mg "
        "colvaprine group.",
        _VESTA,
        False,
    ),
    (
        "negation flip: Ortiz oversaw statistics and was NOT involved in recruiting",
        "Dr. Rafael Ortiz, who oversaw the VESTA trial's statistical analysis, also helped "
        "recruit patients for the study.",
        _VESTA,
        False,
    ),
    (
        "overgeneralisation: no serious liver problems seen, but too small for rare events",
        "The VESTA trial established that colvaprine carries no risk of serious liver problems.",
        _VESTA,
        False,
    ),
    (
        "plan stated as done: 52-week follow-up is planned and has not begun recruiting",
        "A 52-week follow-up study of colvaprine is currently recruiting patients.",
        _VESTA,
        False,
    ),
    (
        "unmentioned: doc says results can't apply to over-65s; no dosing advice is given",
        "Because the VESTA trial excluded people over 65, the researchers recommend starting "
        "older patients on the 25 mg dose of colvaprine.",
        _VESTA,
        False,
    ),
]


def report(engine: Engine, title: str, cases: list[Case]) -> int:
    """Print one line per case and return how many the checker gets right."""
    print(f"## {title} (the last claim of each answer is the one that matters)")
    right = 0
    for name, answer, facts, supported in cases:
        res = engine.check(
            {
                "answerCandidate": answer,
                "facts": [{"factText": f} for f in facts],
                "groundingSpec": {"enableClaimLevelScore": True},
            }
        )
        last = res["claims"][-1]
        checked = last.get("groundingCheckRequired", False)
        passes = not checked or last.get("score", 0) >= THRESHOLD
        ok = passes == supported
        right += ok
        score = f"score {last.get('score')}" if checked else "not checked"
        print(
            f"  {'ok  ' if ok else 'MISS'} {name}: {score}, "
            f"cited {bool(last.get('citationIndices'))}, supportScore {res['supportScore']}"
        )
    print(f"  {right} of {len(cases)} right")
    return right


def main() -> int:
    engine = Engine(EngineConfig())
    engine.warm_up()
    print(f"engine {engine.model_id}")
    report(engine, "Known cases", KNOWN)
    report(engine, "Known limits (what a green highlight can still hide)", LIMITS)
    report(engine, "0.7.44's held probe (first run: 14 of 24 right)", HELD)
    report(engine, "0.7.45's held probe (first run: 9 of 30 right)", HELD10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
